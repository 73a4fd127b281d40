import { TroupeError } from "../errors.ts";

/**
 * Dependency graphs of phases (within an initiative) and tasks (within a phase), as pure
 * functions: resolving what a draft names, refusing cycles and strangers, and the order in which
 * ready items start. Errors are `bad_request` naming the item and the problem, since they reach
 * the person (an edit) or the proposing agent (a failed run) as the message.
 */

/** An item as proposed or edited: `dependsOn` holds refs (a slug or an id) still to resolve. */
export interface DraftNode {
  /** The item's id (a new one for a draft). */
  id: string;
  /** How messages name it: its slug. */
  label: string;
  dependsOn: string[];
}

/** A node whose dependencies are ids. */
export interface Node {
  id: string;
  label: string;
  dependsOn: string[];
}

export interface Scope {
  /** What a ref names within the graph: each member's slug and id → its id. */
  local: ReadonlyMap<string, string>;
  /** Where a ref outside the graph lives ("initiative other" / "phase setup"), null when nowhere. */
  elsewhere: (ref: string) => string | null;
  /** "phase" or "task", for messages. */
  kind: string;
  /** Where the graph is ("this initiative", "phase setup"), for messages. */
  where: string;
}

/** The nodes with their refs resolved to ids; an unknown or outside ref is refused by name. */
export function resolveRefs(drafts: DraftNode[], scope: Scope): Node[] {
  return drafts.map((d) => {
    const deps: string[] = [];
    for (const ref of d.dependsOn) {
      const id = scope.local.get(ref);
      if (id === undefined) {
        const other = scope.elsewhere(ref);
        if (other !== null) {
          throw new TroupeError("bad_request", `${scope.kind} ${d.label} depends on '${ref}', a ${scope.kind} of ${other}: dependencies stay within ${scope.where}`);
        }
        throw new TroupeError("bad_request", `${scope.kind} ${d.label} depends on '${ref}': no such ${scope.kind} in ${scope.where}`);
      }
      if (!deps.includes(id)) deps.push(id);
    }
    return { id: d.id, label: d.label, dependsOn: deps };
  });
}

/** One cycle as labels, first repeated at the end (`a → b → a`), or null when there is none. */
export function findCycle(nodes: Node[]): string[] | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const state = new Map<string, "open" | "done">();
  const path: Node[] = [];
  const visit = (n: Node): string[] | null => {
    state.set(n.id, "open");
    path.push(n);
    for (const dep of n.dependsOn) {
      const d = byId.get(dep);
      if (!d) continue;
      if (state.get(d.id) === "open") {
        const from = path.findIndex((p) => p.id === d.id);
        return [...path.slice(from).map((p) => p.label), d.label];
      }
      if (!state.has(d.id)) {
        const c = visit(d);
        if (c) return c;
      }
    }
    path.pop();
    state.set(n.id, "done");
    return null;
  };
  for (const n of nodes) {
    if (state.has(n.id)) continue;
    const c = visit(n);
    if (c) return c;
  }
  return null;
}

/** Throws `bad_request` naming a cycle when the graph has one. */
export function assertAcyclic(nodes: Node[], kind: string): void {
  const cycle = findCycle(nodes);
  if (cycle) throw new TroupeError("bad_request", `${kind} dependencies form a cycle: ${cycle.join(" → ")}`);
}

export interface OrderItem {
  id: string;
  dependsOn: string[];
  createdAt: number;
}

/**
 * Each item's longest path along `next` (an acyclic graph): 0 with nowhere to go, else one more
 * than the longest of its next; a next outside the set (undefined), or a cycle that slipped in,
 * counts as one level and never loops.
 */
function longestPaths(items: OrderItem[], next: (item: OrderItem) => (OrderItem | undefined)[]): Map<string, number> {
  const out = new Map<string, number>();
  const onPath = new Set<string>();
  const walk = (i: OrderItem): number => {
    const known = out.get(i.id);
    if (known !== undefined) return known;
    onPath.add(i.id);
    let d = 0;
    for (const n of next(i)) d = Math.max(d, n && !onPath.has(n.id) ? walk(n) + 1 : 1);
    onPath.delete(i.id);
    out.set(i.id, d);
    return d;
  };
  for (const i of items) walk(i);
  return out;
}

/** Each item's depth: 0 without dependencies, else one more than its deepest dependency. */
export function depths(items: OrderItem[]): Map<string, number> {
  const byId = new Map(items.map((i) => [i.id, i]));
  return longestPaths(items, (i) => i.dependsOn.map((id) => byId.get(id)));
}

/**
 * Each item's height: 0 when nothing of the set depends on it, else one more than its tallest
 * dependent, so the length of the chain still to run after it.
 */
export function heights(items: OrderItem[]): Map<string, number> {
  const dependents = new Map<string, OrderItem[]>();
  for (const i of items) {
    for (const dep of i.dependsOn) {
      const list = dependents.get(dep);
      if (list) list.push(i);
      else dependents.set(dep, [i]);
    }
  }
  return longestPaths(items, (i) => dependents.get(i.id) ?? []);
}

/**
 * The items that may start now, in the order to start them: `waiting` ones (approved, or
 * auto-approved per the review policy) whose every dependency is `completed`; the tallest first
 * (the longest chain of dependents still behind it: the critical path starts before work nothing
 * waits for), then shallower, then older; items alike keep their given order (the store's
 * insertion order).
 */
export function readyOrder<T extends OrderItem>(items: T[], waiting: (item: T) => boolean, completed: (id: string) => boolean): T[] {
  const d = depths(items);
  const h = heights(items);
  return items
    .filter((i) => waiting(i) && i.dependsOn.every(completed))
    .sort((a, b) => h.get(b.id)! - h.get(a.id)! || d.get(a.id)! - d.get(b.id)! || a.createdAt - b.createdAt);
}

/** Items in dependency order (each after what it depends on), then by age, else as given: for showing a tree. */
export function dependencyOrder<T extends OrderItem>(items: T[]): T[] {
  const d = depths(items);
  return [...items].sort((a, b) => d.get(a.id)! - d.get(b.id)! || a.createdAt - b.createdAt);
}
