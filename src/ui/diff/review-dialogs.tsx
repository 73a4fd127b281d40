import { placeOf } from "../../protocol/diff-line.ts";
import { FormError, formValues } from "../kit/form.ts";
import type { DialogsOf } from "../kit/dialogs/dialog-spec.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { closeSaying, formFailed } from "../kit/keys/helpers.ts";
import { CommentDialog } from "./components/CommentDialog.tsx";
import { reviewClient } from "./open-diff.ts";
import type { CommentModal, ReviewModal } from "./review-modal.ts";

/** Saves the comment (a new one on its line, or the edited one) in the agent's pending review. */
function saveComment(env: KeyEnv, m: CommentModal): void {
  const text = String(formValues(m.form).comment ?? "");
  if (!text.trim()) throw new FormError("write the comment (x on a comment deletes it)");
  const { target: t } = m;
  const client = reviewClient(env);
  const saved = m.commentId
    ? client.editReviewComment(m.commentId, { text })
    : client.addReviewComment(m.agentId, { file: t.file, line: t.line, side: t.side, ...(t.section && { section: t.section }), code: t.code, text });
  env.dispatch({ type: "busy", busy: true });
  saved.then((comment) => {
    env.dispatch({ type: "commentSaved", key: m.key, comment });
    const where = placeOf(comment.file, comment.side, comment.at?.line ?? comment.line);
    closeSaying(env, `${m.commentId ? "saved the comment on" : "commented on"} ${where} · S sends the review`);
  }, (err: unknown) => formFailed(env, err));
}

export const REVIEW_DIALOGS: DialogsOf<ReviewModal> = {
  comment: { keys: "field", render: (m, { width, height }) => <CommentDialog modal={m} width={width} height={height} />, submit: saveComment },
};
