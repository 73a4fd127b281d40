import { back, down, end, help, home, pageDown, pageUp, quit, up } from "../kit/keys/helpers.ts";
import { ch } from "../kit/keys/key-spec.ts";
import type { Controller, KeyEnv } from "../kit/keys/binding.ts";
import { agentDiff } from "./diff-bindings.ts";
import type { CursorMove } from "./diff-ui.ts";
import { comment, deleteComment, editComment, sendReview } from "./review-bindings.ts";

const move = (m: CursorMove) => (env: KeyEnv) => env.dispatch({ type: "diffCursor", move: m, page: env.screen.diffRows });

/**
 * The diff view: a cursor over its lines and the review's comments under them; `c`, `enter`,
 * `x` and `S` review (review-bindings.ts); esc or d goes back to the view it was opened from.
 */
export const diffController: Controller = {
  context: "diff",
  bindings: [
    { ...up(move("up")), help: "cursor up a line" },
    { ...down(move("down")), help: "cursor down a line" },
    { ...pageUp(move("pageUp")), help: "cursor up a page" },
    { ...pageDown(move("pageDown")), help: "cursor down a page" },
    { ...home(move("first")), keys: [...home(move("first")).keys, ch("g")], help: "cursor to the first line" },
    { ...end(move("last")), help: "cursor to the last line" },
    comment,
    editComment,
    deleteComment,
    sendReview,
    { ...back((env) => env.dispatch({ type: "back" })), help: "back to the view the diff was opened from" },
    agentDiff,
    help,
    quit,
  ],
};
