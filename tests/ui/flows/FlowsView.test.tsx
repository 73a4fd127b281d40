import { afterEach, describe, expect, test } from "bun:test";
import { TroupeError } from "../../../src/errors.ts";
import { flowRow, flowTime } from "../../../src/ui/flows/flow-rows.ts";
import { FakeClient, makeAgent, makeFlow } from "../helpers/fake-client.ts";
import { KEY, renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

const rowOf = (frame: string, name: string) => frame.split("\n").find((l) => l.includes(` ${name} `)) ?? "";
const at = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi).getTime();

describe("flow rows", () => {
  test("times are local and absolute: the hour today, the date another day, the year another year", () => {
    const now = at(2026, 11, 23, 10, 0);
    expect(flowTime(at(2026, 11, 23, 14, 5), now)).toBe("14:05");
    expect(flowTime(at(2026, 11, 24, 3, 0), now)).toBe("Nov 24 03:00");
    expect(flowTime(at(2027, 1, 2, 3, 0), now)).toBe("Jan 2 2027 03:00");
  });

  test("next is off when disabled; last names the agent it started as it is now, else the outcome, else never", () => {
    const now = at(2026, 11, 23, 10, 0);
    const agent = makeAgent({ name: "nightly-otter", status: "done" });
    const agents = { [agent.id]: agent };
    const ran = makeFlow({ name: "nightly", nextRunAt: at(2026, 11, 24, 3, 0), lastRunAt: at(2026, 11, 23, 3, 0), lastAgentId: agent.id, lastOutcome: "started nightly-otter" });
    expect(flowRow(ran, agents, now)).toEqual({ name: "nightly", enabled: true, cron: "0 3 * * *", next: "Nov 24 03:00", last: "03:00 @nightly-otter done" });
    const skipped = makeFlow({ enabled: false, nextRunAt: null, lastRunAt: at(2026, 11, 23, 9, 0), lastOutcome: "skipped: the gate said no" });
    expect(flowRow(skipped, agents, now)).toMatchObject({ next: "off", last: "09:00 skipped: the gate said no" });
    expect(flowRow(makeFlow({ nextRunAt: null }), agents, now)).toMatchObject({ next: "-", last: "never" });
  });
});

describe("flows view", () => {
  function client() {
    const c = new FakeClient([makeAgent({ name: "worker" })]);
    c.flowsByName.set("nightly", makeFlow({ name: "nightly", cron: "0 3 * * *" }));
    // an hour ago, or midnight when that was yesterday: a time of today shows as its hour (between 00:00 and 01:00 an hour ago is a date)
    const today = Math.max(Date.now() - 3_600_000, new Date().setHours(0, 0, 0, 0));
    c.flowsByName.set("weekly", makeFlow({ name: "weekly", cron: "0 9 * * 1", enabled: false, nextRunAt: null, lastRunAt: today, lastOutcome: "skipped: run false" }));
    return c;
  }

  test("f lists the flows with schedule, next and last run; esc goes back to the agents", async () => {
    const c = client();
    screen = await renderApp(c);
    await screen.waitFor("worker");
    await screen.press("f");
    const f = await screen.waitFor("weekly");
    expect(f).toContain("Flows · 2");
    expect(rowOf(f, "nightly")).toMatch(/nightly +on +0 3 \* \* \* +\S.* never/);
    expect(rowOf(f, "weekly")).toMatch(/weekly +off +0 9 \* \* 1 +off +\d\d:\d\d skipped: run false/);
    expect(f).toContain("r run now");
    await screen.press(KEY.esc);
    await screen.waitForNot("Flows · 2");
    expect(screen.frame()).toContain("worker");
  });

  test("r asks first, then runs the selected flow: the outcome shows and the row names its agent; n runs nothing", async () => {
    const c = client();
    screen = await renderApp(c);
    await screen.press("f");
    await screen.waitFor("weekly");
    await screen.press("r");
    await screen.waitFor("Run nightly now?");
    await screen.press("n");
    await screen.waitForNot("Run nightly now?");
    expect(c.callsOf("runFlow")).toEqual([]);
    // keys typed after r do not confirm what the person has not seen
    await screen.press("ry");
    await screen.waitFor("Run nightly now?");
    expect(c.callsOf("runFlow")).toEqual([]);
    await screen.press("y");
    await waitFor(() => c.callsOf("runFlow").length === 1, () => "runFlow called");
    expect(c.callsOf("runFlow")[0]).toEqual(["nightly"]);
    await screen.waitFor("nightly: started nightly-run");
    await waitFor(() => rowOf(screen!.frame(), "nightly").includes("@nightly-run starting"), () => `no agent on the row:\n${screen!.frame()}`);
  });

  test("e disables and enables the selected flow; j moves to the next; a refusal says why", async () => {
    const c = client();
    screen = await renderApp(c);
    await screen.press("f");
    await screen.waitFor("weekly");
    await screen.press("e");
    await screen.waitFor("nightly disabled");
    await waitFor(() => /nightly +off/.test(rowOf(screen!.frame(), "nightly")), () => screen!.frame());
    await screen.press("j", "e");
    await screen.waitFor("weekly enabled");
    await waitFor(() => /weekly +on/.test(rowOf(screen!.frame(), "weekly")), () => screen!.frame());
    expect(c.callsOf("setFlowEnabled")).toEqual([["nightly", false], ["weekly", true]]);
    c.failNext.set("setFlowEnabled", new TroupeError("forbidden", "only the person may enable flows"));
    await screen.press("e");
    await screen.waitFor("only the person may enable flows");
  });

  test("no flows: how to add one; r says there is nothing to run", async () => {
    screen = await renderApp(new FakeClient());
    await screen.press("f");
    await screen.waitFor("no flows yet: troupe flow add");
    await screen.press("r");
    await screen.waitFor("no flow selected");
  });
});
