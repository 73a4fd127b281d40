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
  ) {}

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
  static build(state: EntitiesState, waiting: ReadonlySet<string>, filter: string): ListIndex {
    const f = parseFilter(filter);
    const needing = (a: Agent) => waiting.has(a.id) || hasQuestions(a);
    const all = Object.values(state.agents);
    const sorted = all.filter((a) => matchesFilter(a, f)).sort((a, b) => compareInList(a, b, needing));
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
    return new ListIndex(state.agents, sourcesOf(state), waiting, filter, rows.map((r) => r.item.id), position, tree, needs, all.length, running);
  }

  /** This order carried over to `state`, when no agent changed its place; null when the list must be sorted anew. */
  carry(state: EntitiesState, waiting: ReadonlySet<string>, filter: string): ListIndex | null {
    if (waiting !== this.waiting || filter !== this.filter) return null;
    const sources = sourcesOf(state);
    if (state.agents === this.agents && sources.every((s, i) => s === this.sources[i])) return this;
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
    return new ListIndex(state.agents, sources, waiting, filter, this.order, this.position, this.tree, this.needs, this.total, running);
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
export function listIndex(prev: ListIndex | null, state: EntitiesState, filter: string): ListIndex {
  const waiting = prev ? prev.waitingIn(state) : waitingOnPerson(state);
  return prev?.carry(state, waiting, filter) ?? ListIndex.build(state, waiting, filter);
}
