import type { Agent } from "../../protocol/entities.ts";
import { isLive } from "../../protocol/status.ts";
import { treeRows } from "../../output/tree.ts";
import { compareInList, hasQuestions, matchesFilter, parseFilter, waitingOnPerson, type EntitiesState } from "../mirror/entities-state.ts";

/** Ids in list order, as the keys move through them: found by id in O(1). */
export interface IdList {
  readonly length: number;
  at(index: number): string | undefined;
  indexOf(id: string): number;
}

/** What the list is made from besides the agents: whom the person owes an answer comes from these. */
type Sources = readonly [EntitiesState["conversations"], EntitiesState["messages"], EntitiesState["permissions"]["pending"]];
const sourcesOf = (s: EntitiesState): Sources => [s.conversations, s.messages, s.permissions.pending];

/** What decides an agent's place in the list (besides waiting on the person, compared apart). */
const placeKey = (a: Agent) => `${a.status}\u0000${a.createdAt}\u0000${a.name}\u0000${a.parentId ?? ""}\u0000${hasQuestions(a) ? 1 : 0}`;

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

const NO_LASTS: readonly boolean[] = [];

/** With several sources: how many, and which holds each agent (`SourcesView`). */
export interface Grouping {
  readonly list: readonly unknown[];
  indexOf(agentId: string): number;
}

/** The needing block's place among the groups: before every source's. */
export const NEEDS_GROUP = -1;

/** The agent's source's place; one no source holds (yet: a view a moment older) comes last, under no header. */
const sourceRank = (g: Grouping, id: string): number => {
  const i = g.indexOf(id);
  return i < 0 ? g.list.length : i;
};

/** A line of the list: an agent, or (with several sources) a group's header. */
export type ListRow = { kind: "agent"; agent: Agent } | { kind: "header"; group: number };

/**
 * The lines of a grouped list: agents needing the person first, across the sources, under one
 * header; then each source's header (every source has one, even with no agent) over the rest of
 * its agents. An agent's workers stay under it (in its block). `ids` is in list order, blocks
 * already sorted apart; a line is an id or a group's number.
 */
function groupedLines(rows: readonly { id: string; top: boolean; needing: boolean }[], g: Grouping): (string | number)[] {
  const out: (string | number)[] = [];
  let block: number | null = null;
  let next = 0; // the next source whose header is still to come
  for (const r of rows) {
    const b: number = r.top ? (r.needing ? NEEDS_GROUP : sourceRank(g, r.id)) : (block ?? sourceRank(g, r.id));
    if (b !== block) {
      if (b === NEEDS_GROUP) out.push(NEEDS_GROUP);
      else for (; next <= Math.min(b, g.list.length - 1); next++) out.push(next);
      block = b;
    }
    out.push(r.id);
  }
  for (; next < g.list.length; next++) out.push(next);
  return out;
}

/**
 * The agents list as shown (`visibleRows`' order and tree), kept from one state to the next. A
 * keypress reads it as it is: the selection's place is a lookup, a frame draws the rows on screen
 * from it (`window`). A new state is compared with the last by identity, agent by agent (pointer
 * checks, no allocation); only a change that can move an agent (its status, its question, its
 * parent, its name or start, an agent added or gone, whom the person owes an answer, the filter)
 * sorts the list again. Any other change (cost, activity, output metadata) keeps the order and
 * costs what changed. Built by `listIndex`.
 */
export class ListIndex implements IdList {
  private constructor(
    /** What it was built from, by identity. */
    readonly agents: EntitiesState["agents"],
    private readonly sources: Sources,
    /** Agents with an open question to the person, an unread message to them or a tool call to allow. */
    readonly waiting: ReadonlySet<string>,
    readonly filter: string,
    /** The ids in list order: the same array while the order is kept. */
    readonly order: readonly string[],
    private readonly position: ReadonlyMap<string, number>,
    private readonly tree: ReadonlyMap<string, readonly boolean[]>,
    /** Agents waiting for the person: those in `waiting`, and those with questions. */
    readonly needs: ReadonlySet<string>,
    /** Agents in the workspace, and those running. */
    readonly total: number,
    readonly running: number,
    /** With several sources: the sources and the lines as shown (agents and headers), and each agent's line. */
    readonly grouping: Grouping | null = null,
    private readonly lines: readonly (string | number)[] | null = null,
    private readonly lineOf: ReadonlyMap<string, number> | null = null,
  ) {}

  /** Lines as shown: the agents, and with several sources the headers between them. */
  get rowCount(): number {
    return this.lines?.length ?? this.order.length;
  }

  /** The agent's line as shown (-1: not listed). */
  rowOf(id: string): number {
    return this.lineOf ? (this.lineOf.get(id) ?? -1) : this.indexOf(id);
  }

  /** The lines shown from line `from`, at most `count` of them. */
  rows(from: number, count: number): ListRow[] {
    if (!this.lines) return this.window(from, count).map((agent) => ({ kind: "agent", agent }));
    const start = Math.max(0, from);
    return this.lines.slice(start, start + Math.max(0, count)).map((l) => (typeof l === "number" ? { kind: "header", group: l } : { kind: "agent", agent: this.agents[l]! }));
  }

  get length(): number {
    return this.order.length;
  }

  at(index: number): string | undefined {
    return this.order[index];
  }

  indexOf(id: string): number {
    return this.position.get(id) ?? -1;
  }

  /** Its place in the tree of who started whom (`TreeRow.lasts`; empty at the top level). */
  lasts(id: string): readonly boolean[] {
    return this.tree.get(id) ?? NO_LASTS;
  }

  /** The agents listed from `from`, at most `count` of them, as the state holds them. */
  window(from: number, count: number): Agent[] {
    const start = Math.max(0, from);
    return this.order.slice(start, start + Math.max(0, count)).map((id) => this.agents[id]!);
  }

  /** Sorts the agents afresh. */
  static build(state: EntitiesState, waiting: ReadonlySet<string>, filter: string, grouping: Grouping | null = null): ListIndex {
    const f = parseFilter(filter);
    const needing = (a: Agent) => waiting.has(a.id) || hasQuestions(a);
    const all = Object.values(state.agents);
    // several sources: the needing first across them all, then source by source
    const block = grouping ? (a: Agent) => (needing(a) ? NEEDS_GROUP : sourceRank(grouping, a.id)) : null;
    const sorted = all.filter((a) => matchesFilter(a, f)).sort((a, b) => (block ? block(a) - block(b) : 0) || compareInList(a, b, needing));
    const rows = treeRows(sorted, needing);
    const position = new Map<string, number>();
    const tree = new Map<string, readonly boolean[]>();
    rows.forEach((r, i) => {
      position.set(r.item.id, i);
      if (r.lasts.length) tree.set(r.item.id, r.lasts);
    });
    const needs = new Set<string>();
    let running = 0;
    for (const a of all) {
      if (needing(a)) needs.add(a.id);
      if (isLive(a.status)) running++;
    }
    let lines: (string | number)[] | null = null;
    let lineOf: Map<string, number> | null = null;
    if (grouping) {
      lines = groupedLines(rows.map((r) => ({ id: r.item.id, top: r.lasts.length === 0, needing: needing(r.item) })), grouping);
      lineOf = new Map();
      lines.forEach((l, i) => typeof l === "string" && lineOf!.set(l, i));
    }
    return new ListIndex(state.agents, sourcesOf(state), waiting, filter, rows.map((r) => r.item.id), position, tree, needs, all.length, running, grouping, lines, lineOf);
  }

  /** This order carried over to `state`, when no agent changed its place; null when the list must be sorted anew. */
  carry(state: EntitiesState, waiting: ReadonlySet<string>, filter: string, grouping: Grouping | null = null): ListIndex | null {
    if (waiting !== this.waiting || filter !== this.filter) return null;
    // an agent stays in its source: a new grouping of as many sources keeps the order
    if ((grouping === null) !== (this.grouping === null) || (grouping && grouping.list.length !== this.grouping!.list.length)) return null;
    const sources = sourcesOf(state);
    if (state.agents === this.agents && sources.every((s, i) => s === this.sources[i]) && grouping === this.grouping) return this;
    const f = parseFilter(filter);
    let running = this.running;
    let count = 0;
    for (const id in state.agents) {
      count++;
      const a = state.agents[id]!;
      const was = this.agents[id];
      if (a === was) continue;
      if (!was || placeKey(a) !== placeKey(was) || matchesFilter(a, f) !== matchesFilter(was, f)) return null;
      running += (isLive(a.status) ? 1 : 0) - (isLive(was.status) ? 1 : 0);
    }
    if (count !== this.total) return null; // one went
    return new ListIndex(state.agents, sources, waiting, filter, this.order, this.position, this.tree, this.needs, this.total, running, grouping, this.lines, this.lineOf);
  }

  /** Whom the person owes an answer, as of `state`: this index's set when those did not change. */
  waitingIn(state: EntitiesState): ReadonlySet<string> {
    const sources = sourcesOf(state);
    if (sources.every((s, i) => s === this.sources[i])) return this.waiting;
    const now = waitingOnPerson(state);
    return sameSet(now, this.waiting) ? this.waiting : now;
  }
}

/**
 * The list for `state` and `filter`, from `prev` (the last one built, or null): the same object
 * when nothing it shows changed, the same order over the new agents when none moved, else sorted anew.
 */
export function listIndex(prev: ListIndex | null, state: EntitiesState, filter: string, grouping: Grouping | null = null): ListIndex {
  const waiting = prev ? prev.waitingIn(state) : waitingOnPerson(state);
  return prev?.carry(state, waiting, filter, grouping) ?? ListIndex.build(state, waiting, filter, grouping);
}
