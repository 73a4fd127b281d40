import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { groupAlive } from "../../process-info.ts";

/** Set in every process of a session (not a secret): how its processes are found after a setsid. */
export const SESSION_KEY_VAR = "TROUPE_SESSION_KEY";

/** A session's marker: unguessable, so no stranger's process matches by chance; not a secret. */
export function newMarker(): string {
  return randomBytes(16).toString("hex");
}

/** What identifies an agent's processes: its sessions' markers and the process groups it leads. */
export interface ProcessQuery {
  markers: string[];
  /** Process group ids (a session's wrapper pid: it was started with setsid). */
  groups: number[];
}

/** The processes found, and the groups to signal as a whole (a group leader among them, or a query group). */
export interface FoundProcesses {
  pids: number[];
  groups: number[];
}

export const nothingFound = (f: FoundProcesses): boolean => f.pids.length === 0 && f.groups.length === 0;

/**
 * Every live process of this user that carries one of the markers in its environment or belongs
 * to one of the groups, found by one pass over /proc. A child that calls setsid, or double-forks
 * and is re-parented to init, keeps its environment, so it is found; one that clears its
 * environment (`env -i`) and leaves the group is not: that is the limit of a marker.
 * This daemon is never in the answer, though it may have inherited a marker (an agent's client
 * can start it). Without /proc (not Linux), the groups alone, through kill(-pgid, 0).
 */
export function findProcesses(q: ProcessQuery): FoundProcesses {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return { pids: [], groups: q.groups.filter(groupAlive) };
  }
  const needles = q.markers.map((m) => Buffer.from(`${SESSION_KEY_VAR}=${m}\0`));
  const groups = new Set(q.groups);
  const uid = process.getuid?.();
  const pids: number[] = [];
  const signalled = new Set<number>();
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const stat = readStat(pid);
    if (!stat || stat.state === "Z" || stat.state === "X") continue;
    if (uid !== undefined && !ownedBy(pid, uid)) continue;
    const inGroup = groups.has(stat.pgid);
    if (!inGroup && !hasMarker(pid, needles)) continue;
    pids.push(pid);
    // a marked process leading its own group (it called setsid): its group goes too, so a
    // child of it that cleared its environment is still reached
    if (inGroup || stat.pgid === pid) signalled.add(stat.pgid);
  }
  return { pids, groups: [...signalled] };
}

/** Whether `pid` carries the session marker in its environment (a reported pid is that session's). */
export function carriesMarker(pid: number, marker: string): boolean {
  return hasMarker(pid, [Buffer.from(`${SESSION_KEY_VAR}=${marker}\0`)]);
}

/** Sends `signal` to every process and group found; returns how many were reached. */
export function signalAll(found: FoundProcesses, signal: NodeJS.Signals): number {
  let reached = 0;
  for (const g of found.groups) reached += trySignal(-g, signal);
  for (const p of found.pids) reached += trySignal(p, signal);
  return reached;
}

function trySignal(target: number, signal: NodeJS.Signals): number {
  try {
    process.kill(target, signal);
    return 1;
  } catch {
    return 0; // gone meanwhile
  }
}

function readStat(pid: number): { state: string; pgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // after the command name, which may itself hold spaces and parentheses: state ppid pgrp ...
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: f[0] ?? "", pgid: Number(f[2]) };
  } catch {
    return null;
  }
}

function ownedBy(pid: number, uid: number): boolean {
  try {
    return statSync(`/proc/${pid}`).uid === uid;
  } catch {
    return false;
  }
}

function hasMarker(pid: number, needles: Buffer[]): boolean {
  if (!needles.length) return false;
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  return needles.some((n) => env.indexOf(n) >= 0);
}
