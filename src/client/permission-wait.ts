import { withReconnect } from "./reconnect.ts";
import type { TroupeClient } from "./client.ts";
import type { PermissionFileRequest, PermissionRequest } from "../protocol/permission.ts";

/** One wait request is held at most this long by the daemon; the caller asks again until decided. */
const POLL_WINDOW_MS = 30_000;

/**
 * Files an agent's tool call with the daemon (its rules may decide it at once) and long-polls the
 * person's decision until `deadline`, riding out daemon restarts: filing again with the same
 * `toolUseId` returns the request already filed, so a restart between filing and answering loses
 * nothing and the person sees the request once. Returns the request decided, cancelled, or still
 * pending at the deadline (or when `signal` aborts). Throws only what no reconnect cures.
 */
export async function awaitPermission(client: TroupeClient, filing: PermissionFileRequest, deadline: number, signal?: AbortSignal): Promise<PermissionRequest> {
  let r = await withReconnect(deadline, () => client.filePermission(filing));
  while (r.status === "pending" && Date.now() < deadline && !signal?.aborted) {
    const id = r.id;
    r = await withReconnect(deadline, async () => {
      try {
        return await client.waitPermission(id, { timeout: Math.max(1, Math.min(POLL_WINDOW_MS, deadline - Date.now())) }, signal);
      } catch (err) {
        // a daemon restarted from an older store copy may not know the id: file again (same toolUseId)
        if (err instanceof Error && "code" in err && err.code === "not_found") return client.filePermission(filing);
        throw err;
      }
    });
  }
  return r;
}
