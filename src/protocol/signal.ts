import { z } from "zod";
import { QuestionSchema } from "./entities.ts";

/** The file an agent writes to end a run; authoritative over anything it printed. */
export const SignalSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("done"), result: z.string().optional() }),
  z.object({ status: z.literal("questions"), questions: z.array(QuestionSchema).min(1) }),
  z.object({ status: z.literal("error"), error: z.string().min(1) }),
]);
export type Signal = z.infer<typeof SignalSchema>;
