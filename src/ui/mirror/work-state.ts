import { assertNever } from "../../errors.ts";
import type { DaemonEvent } from "../../protocol/events.ts";
import type { Initiative, Phase, Task } from "../../protocol/work.ts";

/** Initiatives, phases and tasks as the daemon told us: the newest version of each wins. */
export interface WorkState {
  initiatives: Readonly<Record<string, Initiative>>;
  phases: Readonly<Record<string, Phase>>;
  tasks: Readonly<Record<string, Task>>;
}

export interface WorkSnapshot {
  initiatives: Initiative[];
  phases: Phase[];
  tasks: Task[];
}

export type WorkEvent = Extract<DaemonEvent, { type: `initiative:${string}` | `phase:${string}` | `task:${string}` }>;

export const initialWork: WorkState = { initiatives: {}, phases: {}, tasks: {} };

type Versioned = { id: string; version: number };

function newer<T extends Versioned>(cur: T | undefined, next: T): T {
  return cur && cur.version > next.version ? cur : next;
}

function fromSnapshot<T extends Versioned>(held: Readonly<Record<string, T>>, items: T[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const it of items) out[it.id] = newer(held[it.id], it);
  return out;
}

/**
 * A snapshot is the truth about what exists (an item it lacks was removed), but an item an event
 * brought that is newer than the snapshot's copy wins: the two race on every refresh.
 */
export function workSnapshot(state: WorkState, snap: WorkSnapshot): WorkState {
  return {
    initiatives: fromSnapshot(state.initiatives, snap.initiatives),
    phases: fromSnapshot(state.phases, snap.phases),
    tasks: fromSnapshot(state.tasks, snap.tasks),
  };
}

/** One table of the state, copied on its first change in a batch. */
class Draft<T extends Versioned> {
  private copy: Record<string, T> | null = null;
  constructor(private readonly base: Readonly<Record<string, T>>) {}
  put(item: T): void {
    const cur = (this.copy ?? this.base)[item.id];
    if (newer(cur, item) === cur) return;
    (this.copy ??= { ...this.base })[item.id] = item;
  }
  drop(id: string): void {
    if (!(this.copy ?? this.base)[id]) return;
    delete (this.copy ??= { ...this.base })[id];
  }
  get changed(): boolean {
    return this.copy !== null;
  }
  get result(): Readonly<Record<string, T>> {
    return this.copy ?? this.base;
  }
}

/** Applies a batch of work events; returns `state` itself when nothing changed. */
export function workEvents(state: WorkState, events: readonly WorkEvent[]): WorkState {
  const initiatives = new Draft(state.initiatives);
  const phases = new Draft(state.phases);
  const tasks = new Draft(state.tasks);
  for (const ev of events) {
    switch (ev.type) {
      case "initiative:created":
      case "initiative:updated":
        initiatives.put(ev.initiative);
        break;
      case "phase:created":
      case "phase:updated":
        phases.put(ev.phase);
        break;
      case "phase:removed":
        phases.drop(ev.phaseId);
        break;
      case "task:created":
      case "task:updated":
        tasks.put(ev.task);
        break;
      case "task:removed":
        tasks.drop(ev.taskId);
        break;
      default:
        assertNever(ev);
    }
  }
  if (!initiatives.changed && !phases.changed && !tasks.changed) return state;
  return { initiatives: initiatives.result, phases: phases.result, tasks: tasks.result };
}

/** A proposed phase or task waits for the person; so does an initiative with a revised goal to accept. */
export const phaseNeedsYou = (p: Phase): boolean => p.status === "proposed";
export const taskNeedsYou = (t: Task): boolean => t.status === "proposed";
export const initiativeNeedsYou = (i: Initiative): boolean => i.proposedGoal !== null;

/** Keys of proposals waiting for the person, for the header's count (the bell: `mirror/attention.ts`). */
export function workAttentionKeys(state: WorkState): string[] {
  const keys: string[] = [];
  for (const i of Object.values(state.initiatives)) if (initiativeNeedsYou(i)) keys.push(`initiative:${i.id}`);
  for (const p of Object.values(state.phases)) if (phaseNeedsYou(p)) keys.push(`phase:${p.id}`);
  for (const t of Object.values(state.tasks)) if (taskNeedsYou(t)) keys.push(`task:${t.id}`);
  return keys;
}
