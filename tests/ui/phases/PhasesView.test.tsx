import { afterEach, describe, expect, test } from "bun:test";
import { FakeClient, makeAgent, makeInitiative, makePhase, makeTask } from "../helpers/fake-client.ts";
import { KEY, renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

/** An initiative `shop`: `schema` approved with a running task and a blocked one, `api` proposed after it. */
function shop() {
  const agent = makeAgent({ name: "brave-otter", branch: "troupe/brave-otter", baseRef: "troupe-initiative/shop" });
  const client = new FakeClient([agent]);
  const i = client.addInitiative(makeInitiative({ slug: "shop", name: "Shop" }));
  const schema = client.setPhase(makePhase(i, { slug: "schema", title: "Tables", status: "approved", content: "Create the tables." }));
  const api = client.setPhase(makePhase(i, { slug: "api", title: "HTTP API", dependsOn: [schema.id], content: "Routes for orders.", proposedBy: agent.id }));
  const tables = client.setTask(makeTask(schema, { slug: "tables", status: "in_progress", agentId: agent.id }));
  const indexes = client.setTask(makeTask(schema, { slug: "indexes", status: "blocked", dependsOn: [tables.id], conflicts: ["db/schema.sql"], reason: "merge conflict" }));
  return { client, agent, i, schema, api, tables, indexes };
}

/** The line holding `text` in the tree (the content pane's title names the selection too). */
const rowOf = (frame: string, text: string) => frame.split("\n").find((l) => l.includes(` ${text} `)) ?? "";

describe("phases view", () => {
  test("p shows the tree: the proposal first and marked, dependencies, tasks with status and agent; the header counts it; a new one rings once", async () => {
    const { client, i } = shop();
    screen = await renderApp(client);
    await screen.waitFor("1 needs you");
    await screen.press("p");
    const f = await screen.waitFor("indexes");
    const lines = f.split("\n");
    expect(lines.findIndex((l) => l.includes(" api "))).toBeLessThan(lines.findIndex((l) => l.includes(" schema approved ")));
    expect(rowOf(f, "api")).toContain("!");
    expect(rowOf(f, "api")).toContain("after: schema");
    expect(rowOf(f, "tables")).toContain("@brave-otter");
    expect(rowOf(f, "tables")).toContain("in progress");
    expect(rowOf(f, "indexes")).toContain("blocked");
    // the selected item's content (the initiative first) in the side pane
    expect(f).toContain("the goal of shop");
    // what waited before the dashboard opened rings nothing; a new proposal rings once, its updates not again
    expect(screen.bells()).toBe(0);
    const late = client.setPhase(makePhase(i, { slug: "late", status: "proposed" }));
    await screen.waitFor("2 need you");
    client.setPhase({ ...late, title: "Later" });
    await screen.waitFor("Later");
    expect(screen.bells()).toBe(1);
  });

  test("y approves the selected proposal through the client; on something not proposed it says why", async () => {
    const { client, api } = shop();
    screen = await renderApp(client);
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("y");
    await screen.waitFor("shop has no proposed goal to review");
    await screen.press("j");
    await screen.waitFor("Routes for orders.");
    await screen.press("y");
    await waitFor(() => client.callsOf("approve").length === 1, () => "approve called");
    expect(client.callsOf("approve")[0]).toEqual([{ ids: [api.id] }]);
    await screen.waitFor("approved shop/api");
    await waitFor(() => !rowOf(screen!.frame(), "api").includes("!"), () => `api still marked:\n${screen!.frame()}`);
    expect(rowOf(screen.frame(), "api")).toContain("approved");
    expect(screen.frame()).not.toContain("needs you");
  });

  test("x asks a reason and whether to send it back; keys typed after x do not reach the dialog", async () => {
    const { client, api } = shop();
    screen = await renderApp(client);
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("j", "xyy");
    await screen.waitFor("Reject shop/api");
    expect(screen.frame()).toContain("Send it back to brave-otter");
    expect(client.callsOf("approve")).toEqual([]);
    await screen.type("too big");
    await screen.press(KEY.tab, " ", KEY.enter);
    await waitFor(() => client.callsOf("reject").length === 1, () => "reject called");
    expect(client.callsOf("reject")[0]).toEqual([api.id, { reason: "too big", revise: true }]);
    await screen.waitFor("rejected shop/api; its agent proposes again");
    await waitFor(() => rowOf(screen!.frame(), "api").includes("rejected"), () => screen!.frame());
  });

  test("enter folds a phase, tab scrolls the content pane, R retries a blocked task", async () => {
    const { client, indexes } = shop();
    screen = await renderApp(client, { rows: 16 });
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("j", "j", KEY.enter);
    await screen.waitForNot("indexes");
    await screen.press(KEY.enter, "j", "j", "j");
    await screen.waitFor("conflicts: db/schema.sql");
    await screen.press("R");
    await waitFor(() => client.callsOf("retry").length === 1, () => "retry called");
    expect(client.callsOf("retry")[0]).toEqual([indexes.id]);
    await waitFor(() => rowOf(screen!.frame(), "indexes").includes("pending"), () => screen?.frame() ?? "");
    await screen.press("R");
    await screen.waitFor("only a blocked or failed task is retried");
  });

  test("a ready task held by dispatch says why in its row and its pane, with the files it owns; once under way it says no more", async () => {
    const { client, schema, tables } = shop();
    client.setTask({ ...tables, files: ["src/api.ts"] });
    const reader = client.setTask(makeTask(schema, { slug: "reader", files: ["src/*.ts", "docs/**"], waiting: "waits for tables (src/api.ts)" }));
    screen = await renderApp(client, { columns: 160 });
    await screen.press("p");
    const f = await screen.waitFor("reader");
    expect(rowOf(f, "reader")).toContain("waits for tables (src/api.ts)");
    expect(rowOf(f, "tables")).not.toContain("waits");
    await screen.press("j", "j", "j", "j", "j");
    const pane = await screen.waitFor("files: src/*.ts, docs/**");
    expect(pane).toContain("│ waits for tables (src/api.ts)");
    client.setTask({ ...reader, status: "in_progress" });
    await screen.waitFor("reader in progress");
    expect(screen.frame()).not.toContain("waits for tables");
  });

  test("the stack: d on a task shows its agent's diff, esc returns to the phases view; o opens the agent", async () => {
    const { client } = shop();
    screen = await renderApp(client, { diff: ["diff --git a/t b/t", "+tables"] });
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("j", "j", "j", "d");
    await screen.waitFor("+tables");
    expect(screen.frame()).toContain("shop/tables");
    await screen.press(KEY.esc);
    await screen.waitFor("indexes");
    expect(screen.frame()).toContain("Phases");
    await screen.press(KEY.esc);
    await screen.waitFor("Agents (1)");
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("o");
    await screen.waitFor("Agents (1)");
    expect(screen.frame()).toMatch(/› ● . brave-otter +running/);
  });

  test("e edits a proposal in the editor; a refused save is shown and edited again with the error on top", async () => {
    const { client, api } = shop();
    let n = 0;
    const editor = (text: string) => (++n === 1 ? text.replace("- schema", "- nowhere") : text.replace(/^#.*\n/gm, "").replace("- nowhere", "- schema").replace("HTTP API", "The API"));
    screen = await renderApp(client, { editor });
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("j", "e");
    await screen.waitFor("depends on 'nowhere'");
    expect(screen.edits[0]).toContain("title: HTTP API");
    await screen.press("y");
    await waitFor(() => client.callsOf("edit").length === 2, () => "edited twice");
    expect(screen.edits[1]).toMatch(/^# .*nowhere/);
    expect(client.callsOf("edit")[1]).toEqual([api.id, { title: "The API", dependsOn: ["schema"], body: "Routes for orders." }]);
    await screen.waitFor("edited shop/api");
  });

  test("D and g ask first, then start; g again stops dispatching", async () => {
    const { client, schema, i } = shop();
    screen = await renderApp(client);
    await screen.press("p");
    await screen.waitFor("indexes");
    await screen.press("D");
    await screen.waitFor("select a phase to detail");
    await screen.press("j", "D");
    await screen.waitFor("only an approved phase is detailed");
    await screen.press("j", "D");
    await screen.waitFor("Detail shop/schema?");
    await screen.press("n");
    await screen.waitForNot("Detail shop/schema?");
    expect(client.callsOf("detail")).toEqual([]);
    await screen.press("D");
    await screen.waitFor("Detail shop/schema?");
    await screen.press("y");
    await waitFor(() => client.callsOf("detail").length === 1, () => "detail called");
    expect(client.callsOf("detail")[0]).toEqual([schema.id]);
    await screen.press("g");
    await screen.waitFor("Dispatch shop?");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("dispatch").length === 1, () => "dispatch called");
    await waitFor(() => rowOf(screen!.frame(), "shop").includes("dispatching"), () => screen?.frame() ?? "");
    await screen.press("g");
    await waitFor(() => client.callsOf("stopDispatch").length === 1, () => "stopDispatch called");
    expect(client.callsOf("stopDispatch")[0]).toEqual([i.id]);
  });

  test("at 80x24 the panes stack and every line fits; events from a storm land", async () => {
    const { client, i, schema } = shop();
    screen = await renderApp(client, { columns: 80, rows: 24 });
    await screen.press("p");
    await screen.waitFor("indexes");
    for (let n = 0; n < 200; n++) client.setTask(makeTask(schema, { slug: `t-${n}`, createdAt: 10_000 + n }));
    client.setPhase(makePhase(i, { slug: "late", status: "proposed" }));
    await screen.waitFor("late");
    const lines = screen.frame().split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(screen.frame()).toContain("2 need you");
  });

  test("with a pool, a line over the tree gives each host's agents running against its slots, or that it does not answer; read again as the work moves; the screen still fits", async () => {
    const { client, schema } = shop();
    const host = (name: string, running: number | null, slots: number, reachable = true) => ({ ...client.hostsList[0]!, name, running, slots, reachable, error: reachable ? null : `${name}: no answer` });
    client.hostsList = [host("local", 1, 4), host("box", 0, 2), host("gone", null, 1, false)];
    screen = await renderApp(client, { columns: 80, rows: 24 });
    await screen.press("p");
    let f = await screen.waitFor("hosts  local 1/4 · box 0/2 · gone unreachable");
    expect(f).toContain("indexes");
    const lines = f.split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // a task starts: the pool is asked again
    const asked = client.callsOf("hosts").length;
    client.hostsList = [host("local", 1, 4), host("box", 1, 2), host("gone", null, 1, false)];
    client.setTask(makeTask(schema, { slug: "routes", status: "in_progress" }));
    f = await screen.waitFor("box 1/2");
    expect(client.callsOf("hosts").length).toBeGreaterThan(asked);
    // this machine alone is no pool: no line
    await screen.press("p");
    client.hostsList = [host("local", 0, 4)];
    await screen.press("p");
    await screen.waitFor("indexes");
    await Bun.sleep(50);
    expect(screen.frame()).not.toContain("hosts  ");
  });

  test("a daemon without the work routes: the agents still load, the phases view is empty", async () => {
    const client = new FakeClient([makeAgent({ name: "old-timer" })]);
    client.workRoutes = false;
    screen = await renderApp(client);
    await screen.waitFor("old-timer");
    expect(screen.frame()).not.toContain("daemon not reachable");
    await screen.press("p");
    await screen.waitFor("no initiatives yet");
  });
});
