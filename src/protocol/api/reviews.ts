import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

const REF = { ref: "an agent's id or name" } as const;
const ID = { id: "a review comment's id (`rc_<n>`)" } as const;
const commentReply = reply.key(schema("reviews", "CommentResponseSchema"), "comment");

/**
 * The person's review of an agent's diff: comments on its lines, kept by the daemon until sent to
 * the agent as one message. A pending review is the person's draft: agents neither read nor
 * change it (they get it once it is sent, as a message).
 */
export const REVIEW_ENDPOINTS = {
  review: endpoint({
    method: "GET",
    path: "/v1/agents/:ref/review",
    summary:
      "The agent's pending review: each comment with where its line is in the agent's diff now (`at`, its number on the comment's side), `current`, `moved`, or `changed` since (the line's text is gone; `at` null).",
    rule: "person",
    does: "read the pending review of $",
    target: "agent",
    params: REF,
    reply: reply.key(schema("reviews", "ReviewResponseSchema"), "review"),
  }),
  addReviewComment: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/review/comments",
    summary:
      "A comment on a line of the agent's diff: `line` numbered on `side` (`new`: an added or unchanged line, `old`: a removed one) of `file`, in `section` when given (else the uncommitted change first). Anchored by the line's text and the lines around it. With `code` (the line as the commenter saw it), a line that moved since is found by its text; one whose text is gone is refused (409). A line not in the diff is 400, naming the lines it shows.",
    rule: "person",
    does: "comment on the diff of $",
    target: "agent",
    params: REF,
    body: schema("reviews", "AddCommentRequestSchema"),
    reply: commentReply,
    status: 201,
  }),
  addReviewComments: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/review/comments/batch",
    summary:
      "Several comments (`comments`, at most 200), each as `POST /v1/agents/:ref/review/comments` takes one, on one reading of the agent's diff: all are added, in order, or none (the first refused says why, as a single comment would be refused).",
    rule: "person",
    does: "comment on the diff of $",
    target: "agent",
    params: REF,
    body: schema("reviews", "AddCommentsRequestSchema"),
    reply: reply.key(schema("reviews", "CommentsResponseSchema"), "comments"),
    status: 201,
  }),
  editReviewComment: endpoint({
    method: "PATCH",
    path: "/v1/review-comments/:id",
    summary: "A pending comment's text, rewritten.",
    rule: "person",
    does: "edit a review comment",
    params: ID,
    body: schema("reviews", "EditCommentRequestSchema"),
    reply: commentReply,
  }),
  deleteReviewComment: endpoint({
    method: "DELETE",
    path: "/v1/review-comments/:id",
    summary: "A pending comment, dropped.",
    rule: "person",
    does: "delete a review comment",
    params: ID,
    reply: reply.ok,
  }),
  sendReview: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/review/send",
    summary:
      "Sends the pending review as one message to the agent (the way `POST /v1/messages` does): each comment with its file, line (as the line is now) and code. With `message`, the person's word ahead of the comments. A running agent gets it in that run (written into a Claude Code session), else through its inbox or first in its next run's prompt; a done, failed or stopped one is resumed with it; a waiting one gets it with the answers to its questions. The comments go; `delivery` says which of these happened. No pending comment is 400.",
    rule: "person",
    does: "send the review of $",
    target: "agent",
    params: REF,
    body: schema("reviews", "SendReviewRequestSchema"),
    reply: reply.key(schema("reviews", "SendReviewResponseSchema"), "sent"),
  }),
} as const;
