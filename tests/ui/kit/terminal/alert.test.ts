import { describe, expect, test } from "bun:test";
import { alertBytes, desktopEscapes, desktopNotification, tmuxPassthrough } from "../../../../src/ui/kit/terminal/alert.ts";
import { DaemonMirror } from "../../../../src/ui/mirror/daemon-mirror.ts";
import type { AttentionItem } from "../../../../src/ui/mirror/attention.ts";
import { FakeClient, makeAgent, makeInitiative, makePhase } from "../../helpers/fake-client.ts";
import { defaultParser, waitFor } from "../../helpers/render.tsx";

const OSC9 = /\x1b\]9;[^\x07\x1b]*\x07/g;
const OSC777 = /\x1b\]777;notify;[^;\x07\x1b]*;[^\x07\x1b]*\x07/g;

describe("the dashboard's alert", () => {
  test("one bell per batch and one notification per new needs-you item, of every reason; none for what waited at start", async () => {
    const waiting = makeAgent({ name: "old", status: "waiting", questions: [{ id: "q", question: "already asked" }] });
    const asker = makeAgent({ name: "ada", status: "running" });
    const breaker = makeAgent({ name: "bob", status: "running" });
    const client = new FakeClient([waiting, asker, breaker]);
    let written = "";
    let batches = 0;
    const feed = new DaemonMirror(client, () => defaultParser, {
      onAttention: (items) => {
        batches++;
        written += alertBytes(items, { bell: true, desktop: "osc9", tmux: false });
      },
      retryMaxMs: 20,
    });
    feed.start();
    await waitFor(() => feed.getView().connection.state === "live", () => "live");
    client.update(asker.id, { status: "waiting", questions: [{ id: "q1", question: "which db?" }] });
    await waitFor(() => written.includes("which db?"), () => "the question's notification");
    client.update(breaker.id, { status: "failed", error: "tests broke" });
    client.addMessage(asker, "build is green");
    const i = makeInitiative();
    client.emit({ type: "phase:created", phase: makePhase(i, { status: "proposed", title: "Schema", proposedBy: asker.id }) });
    await waitFor(() => (written.match(OSC9) ?? []).length === 4, () => `four notifications, got ${JSON.stringify(written)}`);
    client.update(asker.id, { lastActivityAt: 9 }); // nothing new: no more
    await waitFor(() => feed.getView().entities.agents[asker.id]!.lastActivityAt === 9, () => "update seen");
    feed.stop();
    const notes = (written.match(OSC9) ?? []).sort();
    expect(notes).toEqual([
      "\x1b]9;troupe: ada: asks: which db?\x07",
      "\x1b]9;troupe: ada: proposes: phase Schema\x07",
      "\x1b]9;troupe: ada: says: build is green\x07",
      "\x1b]9;troupe: bob: failed: tests broke\x07",
    ]);
    expect(written).not.toContain("already asked");
    const bells = written.replace(OSC9, "").split("").filter((c) => c === "\x07").length;
    expect(bells).toBe(batches); // one per batch: the question came alone, the rest in one or more
    expect(batches).toBeGreaterThanOrEqual(2);
  });

  test("an agent's control characters never reach the terminal: no ESC, BEL or newline inside the sequence", () => {
    const evil: AttentionItem = { name: "ev;il\x1b]0;x", reason: "question", text: "hi\x07\x1b[2J\x9b31m\nrm -rf /\u202e" };
    const out = desktopNotification(`troupe: ${evil.name}`, `asks: ${evil.text}`, "both");
    expect(out).toBe("\x1b]9;troupe: ev;il ]0;x: asks: hi [2J 31m rm -rf /\x07\x1b]777;notify;troupe: ev,il ]0,x;asks: hi [2J 31m rm -rf /\x07");
    expect(out.match(OSC9)).toHaveLength(1);
    expect(out.match(OSC777)).toHaveLength(1);
  });

  test("inside tmux each notification goes through the DCS passthrough, inner ESCs doubled", () => {
    const item: AttentionItem = { name: "ada", reason: "permission", text: "Bash: npm test" };
    const out = alertBytes([item], { bell: false, desktop: "osc777", tmux: true });
    expect(out).toBe("\x1bPtmux;\x1b\x1b]777;notify;troupe: ada;asks permission: Bash: npm test\x07\x1b\\");
    expect(tmuxPassthrough("\x1b]9;x\x07")).toBe("\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\");
  });

  test("off unless the config says so; a flood shows three and a count", () => {
    expect(desktopEscapes(undefined)).toBe("none");
    expect(desktopEscapes(false)).toBe("none");
    expect(desktopEscapes(true)).toBe("both");
    expect(alertBytes([{ name: "a", reason: "done", text: "x" }], { bell: true, desktop: "none", tmux: false })).toBe("\x07");
    const many: AttentionItem[] = Array.from({ length: 5 }, (_, n) => ({ name: `a${n}`, reason: "question", text: "?" }));
    const out = alertBytes(many, { bell: false, desktop: "osc9", tmux: false });
    expect(out.match(OSC9)).toHaveLength(3);
    expect(out).toContain("(+2 more)");
  });
});
