import type { DiffSection, ReviewSide } from "../../protocol/review.ts";
import type { FormState } from "../kit/form.ts";

/** The line a comment is on, as the diff view showed it. */
export interface CommentTarget {
  file: string;
  side: ReviewSide;
  line: number;
  section: DiffSection | null;
  /** The line's text without its marker (the daemon finds the line by it if the diff moved). */
  code: string;
  /** The line as shown, marker included. */
  shown: string;
}

/** `c` (a new comment) or `enter` on one (editing it): its text in a form; `busy` while the daemon saves it. */
export interface CommentModal {
  kind: "comment";
  /** The diff view's key (a late save for another diff is dropped) and the agent whose review it is. */
  key: string;
  agentId: string;
  target: CommentTarget;
  /** The comment edited; null for a new one. */
  commentId: string | null;
  form: FormState;
  busy: boolean;
}

/** The diff view's dialogs (`review-dialogs.tsx`). */
export type ReviewModal = CommentModal;
