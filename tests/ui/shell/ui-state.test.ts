import { describe, expect, test } from "bun:test";
import { FOLLOW } from "../../../src/ui/output/scroll.ts";
import { currentView, initialUi, uiReducer, type UiAction, type UiState } from "../../../src/ui/shell/ui-state.ts";
import { makeForm, textField } from "../../../src/ui/kit/form.ts";

const run = (s: UiState, ...a: UiAction[]) => a.reduce(uiReducer, s);

describe("uiReducer", () => {
  test("moving selects within the list, clamped at both ends", () => {
    const ids = ["a", "b", "c"];
    let s = run(initialUi, { type: "move", delta: 1, ids });
    expect(s.selectedId).toBe("a");
    s = run(s, { type: "move", delta: 1, ids }, { type: "move", delta: 5, ids });
    expect(s.selectedId).toBe("c");
    s = run(s, { type: "move", delta: -9, ids });
    expect(s.selectedId).toBe("a");
  });

  test("selecting another agent follows its output from the end", () => {
    let s = run(initialUi, { type: "select", id: "a" }, { type: "scroll", scroll: { follow: false, line: 3, row: 0 } });
    expect(s.scroll.follow).toBe(false);
    s = run(s, { type: "select", id: "b" });
    expect(s.scroll).toEqual(FOLLOW);
  });

  test("filter: typing, backspace, keep or clear", () => {
    let s = run(initialUi, { type: "filterStart" }, { type: "filterInput", text: "wai" }, { type: "filterInput", text: "tx" }, { type: "filterBackspace" });
    expect(s.filter).toEqual({ text: "wait", editing: true, replace: false });
    expect(run(s, { type: "filterDone", keep: true }).filter).toEqual({ text: "wait", editing: false, replace: false });
    expect(run(s, { type: "filterDone", keep: false }).filter).toEqual({ text: "", editing: false, replace: false });
  });

  test("filter: reopened with one kept, the first character typed starts a new one; backspace edits the old", () => {
    const kept = run(initialUi, { type: "filterStart" }, { type: "filterInput", text: "done" }, { type: "filterDone", keep: true });
    let s = run(kept, { type: "filterStart" });
    expect(s.filter.text).toBe("done");
    s = run(s, { type: "filterInput", text: "r" }, { type: "filterInput", text: "un" });
    expect(s.filter.text).toBe("run");
    s = run(kept, { type: "filterStart" }, { type: "filterBackspace" }, { type: "filterInput", text: "e" });
    expect(s.filter.text).toBe("done");
    expect(run(kept, { type: "filterStart" }, { type: "filterInput", text: "a\nb" }).filter.text).toBe("a b");
  });

  test("form actions reach the open dialog's form, busy marks it", () => {
    let s = run(initialUi, { type: "open", modal: { kind: "resume", agentId: "a", name: "a", form: makeForm([textField("message", "M")]), busy: false } });
    s = run(s, { type: "form", action: { type: "insert", text: "go" } }, { type: "busy", busy: true });
    expect(s.modal.kind === "resume" && s.modal.form.fields[0]!.kind === "text" && s.modal.form.fields[0]!.value).toBe("go");
    expect(s.modal.kind === "resume" && s.modal.busy).toBe(true);
    expect(run(s, { type: "close" }).modal.kind).toBe("none");
  });

  test("a diff result for another agent is ignored", () => {
    const y = { text: "y", kind: "note" as const };
    let s = run(initialUi, { type: "diffOpen", key: "a", title: "t", agentId: "a" });
    s = run(s, { type: "diffLoaded", key: "b", lines: [{ text: "x", kind: "note" }] });
    expect(s.diff!.lines).toBeNull();
    s = run(s, { type: "diffLoaded", key: "a", lines: [y] }, { type: "diffCursor", move: "up", page: 10 });
    expect(s.diff).toMatchObject({ lines: [y], top: 0, cursor: 0 });
    expect(currentView(s)).toBe("diff");
  });

  test("views form a stack: a diff opens over the phases view and back returns to it; p switches the top view", () => {
    let s = run(initialUi, { type: "view", view: "phases" }, { type: "diffOpen", key: "tk_1", title: "t", agentId: null });
    expect(s.views).toEqual(["agents", "phases", "diff"]);
    s = run(s, { type: "back" });
    expect(currentView(s)).toBe("phases");
    s = run(s, { type: "back" }, { type: "back" });
    expect(s.views).toEqual(["agents"]);
    expect(run(s, { type: "diffOpen", key: "a", title: "t", agentId: "a" }, { type: "diffOpen", key: "b", title: "t", agentId: "b" }).views).toEqual(["agents", "diff"]);
  });

  test("the phases view keeps its selection, folds and content scroll; another item starts at its top", () => {
    let s = run(initialUi, { type: "phaseSelect", key: "ph_1" }, { type: "phaseScroll", top: 7 }, { type: "phaseToggle", key: "in_1" });
    expect(s.phases).toEqual({ selected: "ph_1", collapsed: ["in_1"], pane: "tree", contentTop: 7, hosts: null });
    s = run(s, { type: "phaseSelect", key: "ph_2" }, { type: "phaseToggle", key: "in_1" }, { type: "phasePane", pane: "content" });
    expect(s.phases).toEqual({ selected: "ph_2", collapsed: [], pane: "content", contentTop: 0, hosts: null });
  });

  test("help scrolls within its bounds", () => {
    let s = run(initialUi, { type: "open", modal: { kind: "help", top: 0 } }, { type: "helpScroll", delta: -1, max: 5 });
    expect(s.modal).toEqual({ kind: "help", top: 0 });
    s = run(s, { type: "helpScroll", delta: 9, max: 5 });
    expect(s.modal).toEqual({ kind: "help", top: 5 });
  });
});
