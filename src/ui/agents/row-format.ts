import type { Agent } from "../../protocol/entities.ts";
import { formatCost } from "../../output/lines.ts";
import { fit } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import { failureLine, failureShows } from "../../protocol/failure.ts";
import { SANDBOX_NOT_STARTED } from "../../protocol/sandbox.ts";
import { agentElapsed, elapsedChangesIn, elapsedRuns, formatElapsed } from "./elapsed.ts";

export { elapsedChangesIn, formatElapsed } from "./elapsed.ts";


/**
 * A minute or hour display may change this much later than it could, so that rows whose changes
 * fall this close together are redrawn once: ten agents started a few seconds apart otherwise
 * woke an idle dashboard ten times a minute (measured with strace), a redraw each.
 */
const GATHER_MS = 2_000;

/**
 * A seconds display may change this much later than it could, so that rows under a minute old
 * are redrawn once a second together: each ticks on its own phase within the second (when it was
 * started), and 49 young agents on screen redrew the list up to 49 times a second (a third of a
 * core and 130-230 MB of RSS while they were under a minute old).
 */
const SECOND_GATHER_MS = 999;

/**
 * Milliseconds from `now` until these rows' elapsed times should be drawn again: the last change
 * within a window after the first one: SECOND_GATHER_MS when that is a seconds display (any
 * display changing meanwhile comes along), GATHER_MS when it is a minute (or coarser) one, never
 * past a seconds display's change then; null when none runs.
 */
export function nextElapsedChange(rows: readonly Agent[], now: number): number | null {
  const changes: { wait: number; coarse: boolean }[] = [];
  for (const a of rows) {
    if (!elapsedRuns(a)) continue;
    const ms = now - a.createdAt;
    const wait = elapsedChangesIn(ms);
    changes.push({ wait, coarse: ms + wait >= 60_000 });
  }
  if (!changes.length) return null;
  changes.sort((x, y) => x.wait - y.wait);
  const first = changes[0]!;
  const window = first.coarse ? GATHER_MS : SECOND_GATHER_MS;
  let next = first.wait;
  for (const c of changes) {
    if (c.wait > first.wait + window || (first.coarse && !c.coarse)) break;
    next = c.wait;
  }
  return next;
}

/** What the agent works on, on one line: its plan's progress and step under way, where it has a plan, before its task. */
function agentWhat(a: Agent): string {
  const s = a.prompt ?? a.command ?? "";
  // work at risk comes first: it is why the worktree is kept
  return `${a.uncommitted ? "[uncommitted changes] " : ""}${prCell(a)}${portsCell(a)}${sandboxCell(a)}${planCell(a)}${oneLine(s)}`;
}

/**
 * "[unsandboxed] " for an agent that runs outside a sandbox (mode off, or auto on a machine without
 * one), "[network none] " / "[network allow] " for a sandboxed one the network is closed to; a
 * sandboxed agent with the whole network (the default) says nothing.
 */
function sandboxCell(a: Agent): string {
  const s = a.sandbox;
  if (!s || s.note === SANDBOX_NOT_STARTED) return "";
  if (!s.sandboxed) return "[unsandboxed] ";
  return s.network === "all" ? "" : `[network ${s.network}] `;
}

/** "[PR #7] " once its branch has a pull request (`troupe pr`, `P`); the URL itself is in the detail and `ls`. */
function prCell(a: Agent): string {
  if (!a.prUrl) return "";
  const n = /\/pull\/(\d+)/.exec(a.prUrl)?.[1];
  return `[PR${n ? ` #${n}` : ""}] `;
}

/** "[:3000] ", "[:3000,3001] ": the ports its worktree holds (the workspace config's `ports`), where it serves. */
function portsCell(a: Agent): string {
  return a.ports.length ? `[:${a.ports.join(",")}] ` : "";
}

/** An agent's text on one line, safe to show. */
const oneLine = (s: string): string => sanitize(s.replace(/\s*\n\s*/g, " ").trim());

/** "[plan 1/3: Write the fix] ": the entries done of all, and the one under way. */
function planCell(a: Agent): string {
  if (!a.plan?.length) return "";
  const done = a.plan.filter((e) => e.status === "completed").length;
  const now = a.plan.find((e) => e.status === "in_progress");
  return `[plan ${done}/${a.plan.length}${now ? `: ${oneLine(now.content)}` : ""}] `;
}

export interface RowColumns {
  name: number;
  status: number;
  provider: number;
  elapsed: number;
  cost: number;
  what: number;
}

const PREFIX = 6; // "› ● ! "

/** Column widths of an agent row at `width`: cost stays longest, then the name, provider and prompt drop out. */
export function rowColumns(width: number): RowColumns {
  const elapsed = 4;
  const status = 8;
  let rest = width - PREFIX - status - 1 - elapsed - 1;
  const cost = rest >= 8 + 1 + 7 ? 7 : 0;
  rest -= cost ? cost + 1 : 0;
  // The name gives up a few columns so that what the agent works on still shows.
  const name = rest - 17 >= 10 ? 16 : Math.max(8, Math.min(16, rest - 1 - 10));
  rest -= name + 1;
  const provider = rest >= 8 + 1 + 12 ? 8 : 0;
  rest -= provider ? provider + 1 : 0;
  return { name, status, provider, elapsed, cost, what: rest >= 6 ? rest : 0 };
}

export interface RowCells {
  name: string;
  status: string;
  provider: string;
  elapsed: string;
  cost: string;
  what: string;
}

/**
 * The text of each column, already cut and padded to its width; `note` leads what it works on
 * (where it is, in a list over several sources). `tree` (the agent's place under
 * its parent) comes out of the name's width, at most half of it: deeper levels lose their
 * leftmost glyphs, so the name keeps its room and the row stays one line.
 */
export function rowCells(a: Agent, cols: RowColumns, now: number, tree = "", note = ""): RowCells {
  const cost = a.costUsd === null ? "" : formatCost(a.costUsd);
  const indent = tree.slice(Math.max(0, tree.length - Math.floor(cols.name / 2)));
  return {
    name: fit(indent + a.name, cols.name),
    status: fit(a.status, cols.status),
    provider: cols.provider ? fit(a.provider, cols.provider) : "",
    elapsed: elapsedCell(a, cols, now),
    cost: cols.cost ? cost.padStart(cols.cost) : "",
    what: cols.what ? whatCell(a, cols, now, note) : "",
  };
}

/** The row's elapsed time, as its cell reads at `now`. */
export function elapsedCell(a: Agent, cols: RowColumns, now: number): string {
  return formatElapsed(agentElapsed(a, now)).padStart(cols.elapsed);
}

/** What the agent works on, as its cell reads at `now`: a failure (and a retry's countdown) says more than the task while it stands. */
export function whatCell(a: Agent, cols: RowColumns, now: number, note = ""): string {
  return fit(note + (failureShows(a) ? sanitize(failureLine(a.failure, a.retryAt, now, a.status)) : agentWhat(a)), cols.what);
}

/** Whether the row's what-cell reads the clock (a retry's countdown). */
export function whatReadsClock(a: Agent): boolean {
  return a.retryAt !== null && failureShows(a);
}

/** Whether two rows read the same. */
export function sameRowCells(a: RowCells, b: RowCells): boolean {
  return a === b || (a.name === b.name && a.status === b.status && a.provider === b.provider && a.elapsed === b.elapsed && a.cost === b.cost && a.what === b.what);
}
