import { placeOf } from "../../../protocol/diff-line.ts";
import { sanitize } from "../../../output/sanitize.ts";
import type { CommentModal } from "../review-modal.ts";
import { Dialog, dialogInner } from "../../kit/components/Dialog.tsx";
import { FormView } from "../../kit/components/FormView.tsx";

export interface CommentDialogProps {
  modal: CommentModal;
  width: number;
  height: number;
}

/** A comment's text, under the line it is on. */
export function CommentDialog({ modal, width, height }: CommentDialogProps) {
  const inner = dialogInner(width, height);
  const { target: t } = modal;
  const footer = modal.busy ? "saving…" : "enter save · ctrl+j new line · esc cancel";
  const title = `${modal.commentId ? "Edit the comment on" : "Comment on"} ${placeOf(t.file, t.side, t.line)}`;
  const notes = { comment: `${sanitize(t.shown)}\n` };
  return (
    <Dialog title={title} width={width} height={height} footer={footer}>
      <FormView form={modal.form} width={inner.width} fieldRows={Math.max(1, inner.height - 4)} notes={notes} height={inner.height} />
    </Dialog>
  );
}
