import { errorMessage } from "../../errors.ts";
import { codeOf, placeOf, sideOf } from "../../protocol/diff-line.ts";
import type { ReviewComment } from "../../protocol/review.ts";
import { makeForm, textField } from "../kit/form.ts";
import { ch, named } from "../kit/keys/key-spec.ts";
import type { Binding, KeyEnv } from "../kit/keys/binding.ts";
import { opensDialog, say } from "../kit/keys/helpers.ts";
import { cursorRow, type DiffState } from "./diff-ui.ts";
import { loadReview, reviewClient } from "./open-diff.ts";
import type { CommentModal, CommentTarget } from "./review-modal.ts";

/**
 * The review keys of the diff view: `c` comments on the line under the cursor, `enter` edits the
 * comment under it, `x` deletes it, `S` sends every comment to the agent as one message, at once.
 */

const diffOf = (env: KeyEnv): DiffState | null => env.ui.diff;

/** Why there is no review here (an initiative's diff, a diff or review still loading or failed), or null. */
function noReview(d: DiffState | null): string | null {
  if (!d?.agentId) return "an initiative's diff goes to no one agent: comment on a task's diff (d on the task)";
  if (d.lines === null) return "the diff is loading";
  if (d.reviewError !== null) return `no review here: ${d.reviewError}`;
  if (d.comments === null) return "the review is loading";
  return null;
}

/** The line under the cursor as a comment's target, or why it cannot take one. */
function targetUnderCursor(d: DiffState): CommentTarget | string {
  const row = cursorRow(d);
  if (!row) return "no line under the cursor";
  if (row.kind === "comment") return "on a comment: enter edits it, x deletes it";
  const l = d.lines![row.index]!;
  const side = sideOf(l);
  const line = side === "new" ? l.new : side === "old" ? l.old : undefined;
  if (!side || line === undefined || l.file === undefined) return "c comments on a line of code (added, removed or unchanged), not on a header";
  return { file: l.file, side, line, section: l.section ?? null, code: codeOf(l), shown: l.text };
}

function commentUnderCursor(d: DiffState | null): ReviewComment | null {
  const row = d ? cursorRow(d) : null;
  return row?.kind === "comment" ? row.comment : null;
}

function openComment(env: KeyEnv, d: DiffState, target: CommentTarget, comment: ReviewComment | null): void {
  const form = makeForm([textField("comment", "Comment", { multiline: true, value: comment?.text ?? "", placeholder: "what the agent should change here, and why" })]);
  const modal: CommentModal = { kind: "comment", key: d.key, agentId: d.agentId!, target, commentId: comment?.id ?? null, form, busy: false };
  env.dispatch({ type: "open", modal });
}

export const comment: Binding = {
  command: "comment",
  keys: [ch("c")],
  help: "comment on the line under the cursor (a line of code: added, removed or unchanged)",
  hint: "comment",
  disabled: (env) => {
    const d = diffOf(env);
    const why = noReview(d);
    if (why) return why;
    const t = targetUnderCursor(d!);
    return typeof t === "string" ? t : null;
  },
  run: opensDialog((env) => {
    const d = diffOf(env)!;
    const t = targetUnderCursor(d);
    if (typeof t !== "string") openComment(env, d, t, null);
  }),
};

export const editComment: Binding = {
  command: "editComment",
  keys: [named("return", "enter")],
  help: "edit the comment under the cursor",
  hint: "edit",
  disabled: (env) => (commentUnderCursor(diffOf(env)) ? null : "enter edits a comment: move onto one (c comments on a line)"),
  run: opensDialog((env) => {
    const d = diffOf(env)!;
    const c = commentUnderCursor(d);
    if (!c) return;
    openComment(env, d, { file: c.file, side: c.side, line: c.at?.line ?? c.line, section: c.at?.section ?? c.section, code: c.code, shown: `${c.side === "old" ? "-" : "+"}${c.code}` }, c);
  }),
};

export const deleteComment: Binding = {
  command: "deleteComment",
  keys: [ch("x")],
  help: "delete the comment under the cursor",
  hint: "delete",
  disabled: (env) => (commentUnderCursor(diffOf(env)) ? null : "x deletes a comment: move onto one"),
  run: (env) => {
    const d = diffOf(env)!;
    const c = commentUnderCursor(d);
    if (!c) return;
    // gone at once; a refusal (deleted elsewhere meanwhile) reads the review again
    env.dispatch({ type: "commentDeleted", key: d.key, id: c.id });
    reviewClient(env).deleteReviewComment(c.id).then(
      () => say(env, `deleted the comment on ${placeOf(c.file, c.side, c.at?.line ?? c.line)}`),
      (err: unknown) => {
        say(env, errorMessage(err), "error");
        loadReview(env, d.key, d.agentId!);
      },
    );
  },
};

export const sendReview: Binding = {
  command: "sendReview",
  keys: [ch("S")],
  help: "send the review: every comment, as one message to the agent (resumed with it if it is done)",
  hint: "send review",
  disabled: (env) => {
    const d = diffOf(env);
    const why = noReview(d);
    if (why) return why;
    if (d!.sending) return "the review is on its way";
    return d!.comments!.length ? null : "no comments to send: c comments on the line under the cursor";
  },
  run: (env) => {
    const d = diffOf(env)!;
    env.dispatch({ type: "reviewSending", key: d.key });
    reviewClient(env).sendReview(d.agentId!, {}).then(
      (sent) => {
        env.dispatch({ type: "reviewSent", key: d.key });
        env.mirror.upsertAgent(sent.agent);
        say(env, `${sent.comments} comment${sent.comments === 1 ? "" : "s"} sent: ${sent.note}`);
      },
      (err: unknown) => {
        env.dispatch({ type: "reviewSendFailed", key: d.key });
        say(env, errorMessage(err), "error");
      },
    );
  },
};
