import { z } from "zod";
import { QuestionSchema } from "./entities.ts";
import { FailureClassSchema } from "./failure.ts";

/** The file an agent writes to end a run; authoritative over anything it printed. */
export const SignalSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("done"), result: z.string().optional() }),
  z.object({ status: z.literal("questions"), questions: z.array(QuestionSchema).min(1) }),
  /** `class`: how the lifecycle should take it (a shell agent saying `network` gets retried). */
  z.object({ status: z.literal("error"), error: z.string().min(1), class: FailureClassSchema.optional() }),
]);
export type Signal = z.infer<typeof SignalSchema>;
