import type { Database } from "../runtime/sqlite.ts";
import { openStore } from "./db.ts";
import { AgentRepo } from "./agents.ts";
import type { StoreWarnings } from "./entity.ts";
import { SessionRepo } from "./sessions.ts";
import { ChunkRepo } from "./chunks.ts";
import { ConversationRepo } from "./conversations.ts";
import { EventRepo } from "./events.ts";
import { InitiativeRepo } from "./initiatives.ts";
import { PhaseRepo } from "./phases.ts";
import { TaskRepo } from "./tasks.ts";
import { BranchRepo } from "./branches.ts";
import { ModeImportRepo } from "./mode-imports.ts";
import { MessageRepo } from "./messages.ts";
import { FlowRepo } from "./flows.ts";
import { PermissionRepo } from "./permissions.ts";
import { SessionInputRepo } from "./session-inputs.ts";
import { ReviewRepo } from "./reviews.ts";
import { PortLeaseRepo } from "./port-leases.ts";
import { scrubFreeSpace, secureDelete } from "./secure.ts";
import { WalCheckpoints } from "./checkpoints.ts";
import { startCheckpointer } from "../runtime/checkpointer.ts";

export interface Store {
  db: Database;
  agents: AgentRepo;
  sessions: SessionRepo;
  chunks: ChunkRepo;
  conversations: ConversationRepo;
  events: EventRepo;
  initiatives: InitiativeRepo;
  phases: PhaseRepo;
  tasks: TaskRepo;
  branches: BranchRepo;
  modeImports: ModeImportRepo;
  messages: MessageRepo;
  flows: FlowRepo;
  permissions: PermissionRepo;
  /** Lines written into running sessions (src/live/). */
  sessionInputs: SessionInputRepo;
  reviews: ReviewRepo;
  /** The ports agents' worktrees hold (the config's `ports`). */
  ports: PortLeaseRepo;
  /** Makes deleted and overwritten text unrecoverable from the file (VACUUM): one-time steps only. */
  scrub(): void;
  /** When the WAL is copied into the database, on a worker thread (see checkpoints.ts). */
  checkpoints: WalCheckpoints;
  close(): void;
}

/** `warnings` hears of damaged rows the store reads around. */
export function createStore(path: string, warnings: StoreWarnings): Store {
  const db = openStore(path);
  secureDelete(db);
  const checkpoints = new WalCheckpoints(db, path === ":memory:" ? null : startCheckpointer(path), (err) =>
    warnings.warn(`checkpointing the store failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  return {
    db,
    agents: new AgentRepo(db, warnings),
    sessions: new SessionRepo(db, warnings),
    chunks: new ChunkRepo(db),
    conversations: new ConversationRepo(db),
    events: new EventRepo(db, warnings),
    initiatives: new InitiativeRepo(db, warnings),
    phases: new PhaseRepo(db, warnings),
    tasks: new TaskRepo(db, warnings),
    branches: new BranchRepo(db),
    modeImports: new ModeImportRepo(db),
    messages: new MessageRepo(db),
    flows: new FlowRepo(db, warnings),
    permissions: new PermissionRepo(db, warnings),
    sessionInputs: new SessionInputRepo(db),
    reviews: new ReviewRepo(db, warnings),
    ports: new PortLeaseRepo(db),
    scrub: () => scrubFreeSpace(db),
    checkpoints,
    close: () => {
      checkpoints.stop();
      db.close();
    },
  };
}

export type { AgentRecord, AgentPatch } from "./agents.ts";
export type { StoreWarnings } from "./entity.ts";
export type { SessionRecord } from "./sessions.ts";
