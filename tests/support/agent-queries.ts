import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { type Sandbox, waitFor } from "./sandbox.ts";

/** The sandbox's agent of that name, as `troupe ls --json` lists it; throws when there is none. */
export const agentNamed = async (sb: Sandbox, name: string): Promise<Agent> => {
  const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
  if (!a) throw new Error(`no agent ${name}`);
  return a;
};

/** The first request pending for the person, once there is one (within `ms`). */
export const pending = (sb: Sandbox, ms = 60_000): Promise<PermissionRequest> => waitFor("a pending permission request", async () => (await sb.json<PermissionRequest[]>(["permissions", "--json"]))[0], ms);
