import { z } from "zod";
import { AgentSchema } from "./entities.ts";
import { MessageSchema } from "./message.ts";

/**
 * An agent's diff as structure, and the person's review of it: comments on lines of that diff,
 * kept by the daemon until they are sent to the agent as one message.
 */

/** Which part of an agent's work a line is in: committed on its branch since its base, or uncommitted in its folder. */
export const DiffSectionSchema = z.enum(["committed", "uncommitted"]);
export type DiffSection = z.infer<typeof DiffSectionSchema>;

export const DiffLineKindSchema = z.enum([
  /** `── committed on … ──`: the start of a section */
  "section",
  /** `diff --git a/… b/…`: the start of a file */
  "file",
  /** `index …`, `--- a/…`, `+++ b/…`, modes, renames, binary files */
  "meta",
  /** `@@ -a,b +c,d @@` */
  "hunk",
  /** lines of code: added, removed, unchanged around them */
  "add",
  "del",
  "context",
  /** anything else: `\ No newline at end of file`, `(clean)`, `(no commits yet)` */
  "note",
]);
export type DiffLineKind = z.infer<typeof DiffLineKindSchema>;

/**
 * One line of a diff as shown (`text`, marker included), with what it is: a line of code carries
 * its file and its number on each side it is on (`old`: removed or context, `new`: added or
 * context); a file's header lines carry the file.
 */
export const DiffLineSchema = z.object({
  text: z.string(),
  kind: DiffLineKindSchema,
  section: DiffSectionSchema.optional(),
  file: z.string().optional(),
  old: z.number().int().optional(),
  new: z.number().int().optional(),
});
export type DiffLine = z.infer<typeof DiffLineSchema>;

/** The side of the diff a comment's line number counts on: `new` for an added or unchanged line, `old` for a removed one. */
export const ReviewSideSchema = z.enum(["new", "old"]);
export type ReviewSide = z.infer<typeof ReviewSideSchema>;

/** Where a comment's line is in the agent's diff now: where it was, `moved` (the agent changed lines around it), or `changed` since (its text is gone). */
export const CommentStateSchema = z.enum(["current", "moved", "changed"]);
export type CommentState = z.infer<typeof CommentStateSchema>;

export const ReviewCommentSchema = z.object({
  /** `rc_<n>` */
  id: z.string(),
  agentId: z.string(),
  file: z.string(),
  side: ReviewSideSchema,
  /** The line's number (on `side`) when the comment was made. */
  line: z.number().int(),
  section: DiffSectionSchema.nullable(),
  /** The line's text then, without its diff marker. */
  code: z.string(),
  text: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  state: CommentStateSchema,
  /** Where the line is now (its number on `side`); null once it has changed. */
  at: z.object({ section: DiffSectionSchema.nullable(), line: z.number().int() }).nullable(),
});
export type ReviewComment = z.infer<typeof ReviewCommentSchema>;

/** An agent's pending review: the comments not sent yet, in the order they were made. */
export const ReviewSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  comments: z.array(ReviewCommentSchema),
});
export type Review = z.infer<typeof ReviewSchema>;

/** Comments one review holds at most, and one comment's text. */
export const MAX_COMMENTS = 200;
export const MAX_COMMENT_CHARS = 8000;
/** Text that reaches the agent's prompt (a process's argument, which ends at NUL). */
const PromptText = z.string().max(MAX_COMMENT_CHARS).refine((s) => !s.includes("\0"), "must not contain a NUL byte (it goes in the agent's prompt)");
const CommentText = PromptText.refine((s) => s.trim() !== "", "must not be empty");

/**
 * `POST /v1/agents/:ref/review/comments`: a comment on the line numbered `line` on `side` of
 * `file` in the agent's diff (in `section`, when given: else the uncommitted change first). With
 * `code` (the line's text as the commenter saw it, without its marker), a line that has changed
 * since is found again by its text, or refused.
 */
export const AddCommentRequestSchema = z.object({
  file: z.string().min(1).max(4096),
  line: z.number().int().positive(),
  side: ReviewSideSchema.default("new"),
  section: DiffSectionSchema.optional(),
  code: z.string().max(64 * 1024).optional(),
  text: CommentText,
});
export type AddCommentRequest = z.input<typeof AddCommentRequestSchema>;

/** `POST /v1/agents/:ref/review/comments/batch`: several comments on one reading of the diff, all or none. */
export const AddCommentsRequestSchema = z.object({ comments: z.array(AddCommentRequestSchema).min(1).max(MAX_COMMENTS) });
export type AddCommentsRequest = z.input<typeof AddCommentsRequestSchema>;

/** `PATCH /v1/review-comments/:id`: its text, rewritten. */
export const EditCommentRequestSchema = z.object({ text: CommentText });

/** `POST /v1/agents/:ref/review/send`: with `message`, a word from the person ahead of the comments. */
export const SendReviewRequestSchema = z.object({ message: PromptText.optional() });
export type SendReviewRequest = z.input<typeof SendReviewRequestSchema>;

/** How a sent review reaches its agent: `live` (it runs: its inbox or its next run), `resumed` with it, or `queued` for its next run. */
export const ReviewDeliverySchema = z.enum(["live", "resumed", "queued"]);
export type ReviewDelivery = z.infer<typeof ReviewDeliverySchema>;

export const SentReviewSchema = z.object({
  message: MessageSchema,
  /** How many comments it carried. */
  comments: z.number().int(),
  delivery: ReviewDeliverySchema,
  /** What happened, in words ("resumed fixer with it"). */
  note: z.string(),
  agent: AgentSchema,
});
export type SentReview = z.infer<typeof SentReviewSchema>;

export const ReviewResponseSchema = z.object({ review: ReviewSchema });
export const CommentResponseSchema = z.object({ comment: ReviewCommentSchema });
export const CommentsResponseSchema = z.object({ comments: z.array(ReviewCommentSchema) });
export const SendReviewResponseSchema = z.object({ sent: SentReviewSchema });
