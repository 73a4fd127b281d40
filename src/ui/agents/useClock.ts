import { useEffect, useMemo, useState } from "react";
import type { Agent } from "../../protocol/entities.ts";
import { nextElapsedChange } from "./row-format.ts";

/**
 * The time the agent rows are drawn at. It moves only when a row's elapsed time, as shown,
 * would read differently ("11s" every second, "3m" once a minute), or when the rows change;
 * while the list is hidden (`rows` null) nothing is scheduled, so an idle dashboard sleeps.
 */
export function useClock(agents: readonly Agent[], rows: { top: number; count: number } | null): number {
  const [tick, setTick] = useState(0);
  const top = rows?.top ?? 0;
  const count = rows ? rows.count : -1;
  // `tick` and the window are triggers: the time is read afresh whenever what is drawn may change
  const now = useMemo(() => Date.now(), [agents, tick, top, count]);
  useEffect(() => {
    if (count < 0) return;
    const wait = nextElapsedChange(agents.slice(top, top + count), Date.now());
    if (wait === null) return;
    const t = setTimeout(() => setTick((n) => n + 1), wait);
    return () => clearTimeout(t);
  }, [agents, tick, top, count]);
  return now;
}
