import { afterEach, expect, test } from "bun:test";
import { DeadlineTimer } from "../../../src/agents/lifecycle/deadline-timer.ts";
import { waitFor } from "../../support/sandbox.ts";

let timer: DeadlineTimer | null = null;
afterEach(() => timer?.shutdown());

/** A timer over a fixed list of deadlines; `due` removes what is due and records when. */
function timerOver(deadlines: number[]) {
  const fired: number[] = [];
  const t = new DeadlineTimer(
    () => (deadlines.length ? Math.min(...deadlines) : null),
    (now) => {
      for (const d of deadlines.filter((d) => d <= now)) {
        deadlines.splice(deadlines.indexOf(d), 1);
        fired.push(d);
      }
    },
    (err) => {
      throw err;
    },
  );
  return { t, fired };
}

test("a deadline added before the armed one moves the timer; a later one leaves it", async () => {
  const now = Date.now();
  const deadlines = [now + 60_000];
  const { t, fired } = timerOver(deadlines);
  timer = t;
  t.schedule();
  const later = now + 120_000;
  deadlines.push(later);
  t.add(later);
  const soon = Date.now() + 30;
  deadlines.push(soon);
  t.add(soon);
  await waitFor("the added deadline fired", () => fired.includes(soon), 5_000);
  expect(fired).toEqual([soon]);
});

test("add arms a timer that had no deadline", async () => {
  const deadlines: number[] = [];
  const { t, fired } = timerOver(deadlines);
  timer = t;
  t.schedule();
  const soon = Date.now() + 20;
  deadlines.push(soon);
  t.add(soon);
  await waitFor("fired", () => fired.length === 1, 5_000);
  expect(fired).toEqual([soon]);
});
