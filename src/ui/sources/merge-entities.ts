import type { EntitiesState } from "../mirror/entities-state.ts";

/** The maps of one source's state that a merge unions, each read from a state. */
const MAPS = {
  agents: (s: EntitiesState) => s.agents,
  conversations: (s: EntitiesState) => s.conversations,
  messages: (s: EntitiesState) => s.messages,
  initiatives: (s: EntitiesState) => s.work.initiatives,
  phases: (s: EntitiesState) => s.work.phases,
  tasks: (s: EntitiesState) => s.work.tasks,
  pending: (s: EntitiesState) => s.permissions.pending,
  settled: (s: EntitiesState) => s.permissions.settled,
} as const;
type MapName = keyof typeof MAPS;
type AnyMap = Readonly<Record<string, unknown>>;

/** A merged state and what it was made of, so that the next merge keeps every map no source changed. */
export interface Merged {
  parts: readonly EntitiesState[];
  state: EntitiesState;
}

/**
 * Several sources' states as one: each map the union of theirs (their ids do not meet: agents and
 * the work have random ids, and the numbered ones carry their source's label). A map no source
 * changed since `prev` is the same object as before, so what is kept by identity downstream
 * (the list's order, whom the person owes an answer) is kept.
 */
export function mergeEntities(parts: readonly EntitiesState[], prev: Merged | null): Merged {
  if (prev && prev.parts.length === parts.length && parts.every((p, i) => p === prev.parts[i])) return prev;
  const maps = {} as Record<MapName, AnyMap>;
  for (const name of Object.keys(MAPS) as MapName[]) {
    const read = MAPS[name] as (s: EntitiesState) => AnyMap;
    const same = prev && prev.parts.length === parts.length && parts.every((p, i) => read(p) === read(prev.parts[i]!));
    maps[name] = same ? read(prev.state) : parts.length === 1 ? read(parts[0]!) : Object.assign({}, ...parts.map(read));
  }
  const state = {
    agents: maps.agents,
    conversations: maps.conversations,
    messages: maps.messages,
    work: { initiatives: maps.initiatives, phases: maps.phases, tasks: maps.tasks },
    permissions: { pending: maps.pending, settled: maps.settled },
    // one source's agents show as soon as it answers: a slow remote does not hold the others back
    loaded: parts.some((p) => p.loaded),
  } as EntitiesState;
  // a work or permissions state whose parts did not change stays the same object too
  if (prev && state.work.initiatives === prev.state.work.initiatives && state.work.phases === prev.state.work.phases && state.work.tasks === prev.state.work.tasks) state.work = prev.state.work;
  if (prev && state.permissions.pending === prev.state.permissions.pending && state.permissions.settled === prev.state.permissions.settled) state.permissions = prev.state.permissions;
  return { parts, state };
}
