import type { REVIEW_ENDPOINTS } from "../protocol/api/reviews.ts";
import type { ReviewService } from "../reviews/service.ts";
import type { HandlersOf } from "./services.ts";

/** The review endpoints over the review service (the guard has let only the person through). */
export function reviewsApi(reviews: ReviewService): HandlersOf<typeof REVIEW_ENDPOINTS> {
  return {
    review: (_caller, { ref }) => reviews.review(ref),
    addReviewComment: (_caller, { ref, ...req }) => reviews.add(ref, req),
    addReviewComments: (_caller, { ref, comments }) => reviews.addMany(ref, comments),
    editReviewComment: (_caller, { id, text }) => reviews.edit(id, text),
    deleteReviewComment: (_caller, { id }) => reviews.remove(id),
    sendReview: (caller, { ref, message }) => reviews.send(caller, ref, message),
  };
}
