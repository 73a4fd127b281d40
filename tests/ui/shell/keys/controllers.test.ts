import { describe, expect, test } from "bun:test";
import type { Key } from "ink";
import { CONTROLLERS, HELP_SECTIONS, helpRows, hintLine, resolveKey, type KeyContext } from "../../../../src/ui/shell/keys/controllers.ts";

const none: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
};
const k = (over: Partial<Key> = {}): Key => ({ ...none, ...over });

describe("key table", () => {
  test("the issue's keys resolve in the agents list", () => {
    const list = (input: string, key = k()) => resolveKey("list", input, key);
    expect(list("", k({ upArrow: true }))).toBe("up");
    expect(list("k")).toBe("up");
    expect(list("j")).toBe("down");
    expect(list("", k({ return: true }))).toBe("focusOutput");
    expect(list("", k({ tab: true }))).toBe("cyclePane");
    expect(list("a")).toBe("answer");
    expect(list("n")).toBe("newAgent");
    expect(list("s")).toBe("stop");
    expect(list("r")).toBe("resume");
    expect(list("d")).toBe("diff");
    expect(list("v")).toBe("toggleRaw");
    expect(list("/")).toBe("filter");
    expect(list("p")).toBe("phases");
    expect(list("?")).toBe("help");
    expect(list("q")).toBe("quit");
    expect(list("c", k({ ctrl: true }))).toBe("quit");
    expect(list("G", k({ shift: true }))).toBe("end");
    expect(list("", k({ pageUp: true }))).toBe("pageUp");
    expect(list("x")).toBeNull();
  });

  test("in the output pane esc goes back and arrows scroll", () => {
    expect(resolveKey("output", "", k({ escape: true }))).toBe("back");
    expect(resolveKey("output", "", k({ downArrow: true }))).toBe("down");
  });

  test("text fields: enter submits, ctrl+j is a newline, tab and shift+tab move, ctrl+s submits all, letters are typing", () => {
    expect(resolveKey("field", "", k({ return: true }))).toBe("submit");
    expect(resolveKey("field", "\n", k())).toBe("newline");
    expect(resolveKey("field", "", k({ tab: true }))).toBe("nextField");
    expect(resolveKey("field", "", k({ tab: true, shift: true }))).toBe("prevField");
    expect(resolveKey("field", "s", k({ ctrl: true }))).toBe("submitAll");
    expect(resolveKey("field", "", k({ escape: true }))).toBe("cancel");
    expect(resolveKey("field", "q", k())).toBeNull();
    expect(resolveKey("field", "a", k())).toBeNull();
    expect(resolveKey("field", "c", k({ ctrl: true }))).toBe("quit");
  });

  test("no key means two commands in one context", () => {
    const contexts: KeyContext[] = ["list", "output", "diff", "phases", "field", "filter", "confirm", "help"];
    for (const ctx of contexts) {
      const seen = new Map<string, string>();
      for (const b of CONTROLLERS[ctx].bindings) {
        for (const spec of b.keys) {
          const id = `${spec.named ?? ""}|${spec.input ?? ""}|${spec.ctrl ?? ""}|${spec.shift ?? ""}`;
          const prev = seen.get(id);
          if (prev !== undefined) expect(`${ctx}: ${spec.label} → ${prev} and ${b.command}`).toBe("");
          seen.set(id, b.command);
        }
      }
    }
  });

  test("the help overlay and the hint line come from the same table", () => {
    const all = HELP_SECTIONS.flatMap((s) => helpRows(s.contexts));
    for (const ctx of ["list", "output", "field", "filter", "confirm"] as const) {
      for (const b of CONTROLLERS[ctx].bindings) expect(all.some((r) => r.help === b.help)).toBe(true);
    }
    expect(hintLine("list")).toContain("a answer");
    expect(hintLine("list")).toContain("q quit");
  });
});
