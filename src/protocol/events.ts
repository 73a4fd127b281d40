import { z } from "zod";
import { AgentSchema, ConversationSchema } from "./entities.ts";
import { OutputChunkSchema } from "./output.ts";
import { InitiativeSchema, PhaseSchema, TaskSchema } from "./work.ts";
import { MessageSchema } from "./message.ts";
import { PermissionRequestSchema } from "./permission.ts";

/** A piece of an agent's output: the stream's most frequent event, which clients check without zod (api/reply-checks.ts). */
export const OutputChunkEventSchema = z.object({ type: z.literal("agent:output"), chunk: OutputChunkSchema });

/** Everything the daemon pushes to subscribers (SSE `event:` name = `type`). */
export const DaemonEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("agent:created"), agent: AgentSchema }),
  z.object({ type: z.literal("agent:updated"), agent: AgentSchema }),
  z.object({ type: z.literal("agent:removed"), agentId: z.string() }),
  OutputChunkEventSchema,
  z.object({ type: z.literal("conversation:created"), conversation: ConversationSchema }),
  z.object({ type: z.literal("conversation:updated"), conversation: ConversationSchema }),
  z.object({ type: z.literal("initiative:created"), initiative: InitiativeSchema }),
  z.object({ type: z.literal("initiative:updated"), initiative: InitiativeSchema }),
  z.object({ type: z.literal("phase:created"), phase: PhaseSchema }),
  z.object({ type: z.literal("phase:updated"), phase: PhaseSchema }),
  z.object({ type: z.literal("phase:removed"), phaseId: z.string() }),
  z.object({ type: z.literal("task:created"), task: TaskSchema }),
  z.object({ type: z.literal("task:updated"), task: TaskSchema }),
  z.object({ type: z.literal("task:removed"), taskId: z.string() }),
  z.object({ type: z.literal("message:created"), message: MessageSchema }),
  z.object({ type: z.literal("message:updated"), message: MessageSchema }),
  /** A tool call waits for the person (or was decided by a rule: created already decided). */
  z.object({ type: z.literal("permission:created"), request: PermissionRequestSchema }),
  /** Decided (allowed, denied) or cancelled because its agent's session ended. */
  z.object({ type: z.literal("permission:updated"), request: PermissionRequestSchema }),
  /** An agent moved to another account of the user (its own was spent): ids and names only, never a secret. */
  z.object({
    type: z.literal("agent:account_switched"),
    agentId: z.string(),
    from: z.object({ id: z.string(), name: z.string() }).nullable(),
    to: z.object({ id: z.string(), name: z.string() }),
    reason: z.string(),
  }),
  /** Sent when a subscriber fell too far behind: it must refetch state, events were dropped. */
  z.object({ type: z.literal("resync"), reason: z.string() }),
]);
export type DaemonEvent = z.infer<typeof DaemonEventSchema>;
export type DaemonEventType = DaemonEvent["type"];
