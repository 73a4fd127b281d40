import type { PermissionRequest, PermissionStatus } from "../../protocol/permission.ts";

/** How a request the dashboard held left the pending ones: its status, or null when a snapshot no longer listed it. */
interface SettledPermission {
  status: Exclude<PermissionStatus, "pending"> | null;
  decidedBy: PermissionRequest["decidedBy"];
}

/**
 * Permission requests as the dashboard holds them: the pending ones, and how each one it saw
 * leave them was settled. A decided request never becomes pending again, so a snapshot fetched
 * before the decision (and answered after its event) cannot bring it back.
 */
export interface PermissionsState {
  pending: Readonly<Record<string, PermissionRequest>>;
  settled: Readonly<Record<string, SettledPermission>>;
}

export const initialPermissions: PermissionsState = { pending: {}, settled: {} };

export function permissionEvent(state: PermissionsState, request: PermissionRequest): PermissionsState {
  if (state.settled[request.id]) return state;
  if (request.status === "pending") {
    if (state.pending[request.id]) return state; // a request changes only by being decided
    return { ...state, pending: { ...state.pending, [request.id]: request } };
  }
  const { [request.id]: _gone, ...pending } = state.pending;
  return { pending, settled: { ...state.settled, [request.id]: { status: request.status, decidedBy: request.decidedBy } } };
}

/** The snapshot lists every pending request: one held but missing from it was settled meanwhile. */
export function permissionsSnapshot(state: PermissionsState, requests: readonly PermissionRequest[]): PermissionsState {
  const pending: Record<string, PermissionRequest> = {};
  for (const r of requests) if (r.status === "pending" && !state.settled[r.id]) pending[r.id] = r;
  let settled = state.settled;
  for (const id of Object.keys(state.pending)) {
    if (pending[id]) continue;
    if (settled === state.settled) settled = { ...settled };
    (settled as Record<string, SettledPermission>)[id] = { status: null, decidedBy: null };
  }
  return { pending, settled };
}

/** The agent's pending requests, oldest first (the one it waits on longest is answered first). */
export function permissionsOf(state: PermissionsState, agentId: string): PermissionRequest[] {
  return Object.values(state.pending)
    .filter((r) => r.agentId === agentId)
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id, "en", { numeric: true }));
}
