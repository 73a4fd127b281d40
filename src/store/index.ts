import type { Database } from "../runtime/sqlite.ts";
import { openStore } from "./db.ts";
import { AgentRepo } from "./agents.ts";
import { SessionRepo } from "./sessions.ts";
import { ChunkRepo } from "./chunks.ts";
import { ConversationRepo } from "./conversations.ts";
import { EventRepo } from "./events.ts";

export interface Store {
  db: Database;
  agents: AgentRepo;
  sessions: SessionRepo;
  chunks: ChunkRepo;
  conversations: ConversationRepo;
  events: EventRepo;
  close(): void;
}

export function createStore(path: string): Store {
  const db = openStore(path);
  return {
    db,
    agents: new AgentRepo(db),
    sessions: new SessionRepo(db),
    chunks: new ChunkRepo(db),
    conversations: new ConversationRepo(db),
    events: new EventRepo(db),
    close: () => db.close(),
  };
}

export type { AgentRecord, AgentPatch, NewAgent } from "./agents.ts";
export type { SessionRecord } from "./sessions.ts";
export { openStore, migrate, schemaVersion } from "./db.ts";
