import { describe, expect, test } from "bun:test";
import { choiceField, formReducer, formValues, isLastField, makeForm, textField, type FormAction, type FormState } from "../../../src/ui/kit/form.ts";

const run = (s: FormState, ...actions: FormAction[]) => actions.reduce(formReducer, s);

describe("form", () => {
  test("typing, cursor moves and deletes edit the active text field", () => {
    let s = makeForm([textField("a", "A")]);
    s = run(s, { type: "insert", text: "helo" }, { type: "left" }, { type: "insert", text: "l" }, { type: "end" }, { type: "insert", text: "!" });
    expect(formValues(s).a).toBe("hello!");
    s = run(s, { type: "home" }, { type: "delete" }, { type: "end" }, { type: "backspace" });
    expect(formValues(s).a).toBe("ello");
  });

  test("a multi-line field keeps newlines and moves between lines; a single-line one turns them into spaces", () => {
    let m = makeForm([textField("m", "M", { multiline: true })]);
    m = run(m, { type: "insert", text: "ab" }, { type: "insert", text: "\n" }, { type: "insert", text: "cd" }, { type: "up" }, { type: "insert", text: "X" });
    expect(formValues(m).m).toBe("abX\ncd");
    m = run(m, { type: "down" }, { type: "insert", text: "Y" });
    expect(formValues(m).m).toBe("abX\ncdY");
    let one = makeForm([textField("o", "O")]);
    one = run(one, { type: "insert", text: "a\r\nb" });
    expect(formValues(one).o).toBe("a b");
  });

  test("next/prev cycle fields and edits go to the active one", () => {
    let s = makeForm([textField("a", "A"), textField("b", "B")]);
    s = run(s, { type: "next" }, { type: "insert", text: "x" });
    expect(formValues(s)).toEqual({ a: "", b: "x" });
    expect(isLastField(s)).toBe(true);
    s = run(s, { type: "next" });
    expect(s.active).toBe(0);
    s = run(s, { type: "prev" });
    expect(s.active).toBe(1);
  });

  test("a choice skips disabled options; options can arrive later", () => {
    let s = makeForm([choiceField("p", "P", [{ value: "", label: "checking…", disabled: true }])]);
    expect(formValues(s).p).toBe("");
    s = run(s, {
      type: "setOptions",
      id: "p",
      options: [
        { value: "aider", label: "Aider", disabled: true },
        { value: "claude", label: "Claude" },
        { value: "generic", label: "Shell" },
      ],
    });
    expect(formValues(s).p).toBe("claude");
    s = run(s, { type: "right" });
    expect(formValues(s).p).toBe("generic");
    s = run(s, { type: "right" });
    expect(formValues(s).p).toBe("claude");
    s = run(s, { type: "left" });
    expect(formValues(s).p).toBe("generic");
  });

  test("a toggle flips; an error clears on the next edit", () => {
    let s = makeForm([{ kind: "toggle", id: "w", label: "W", value: true }]);
    s = run(s, { type: "toggle" });
    expect(formValues(s).w).toBe(false);
    s = run(s, { type: "error", message: "bad" });
    expect(s.error).toBe("bad");
    s = run(s, { type: "toggle" });
    expect(s.error).toBeNull();
  });

  test("↑/↓ move between the lines of a multi-line field, and to the other fields from its ends, single-line fields and toggles", () => {
    const fields = () => [
      textField("one", "One"),
      textField("many", "Many", { multiline: true }),
      { kind: "toggle" as const, id: "t", label: "T", value: true },
      choiceField("c", "C", [{ value: "x", label: "X" }, { value: "y", label: "Y" }]),
    ];
    let s = run(makeForm(fields()), { type: "down" });
    expect(s.active).toBe(1);
    s = run(s, { type: "insert", text: "ab\ncd" }, { type: "up" });
    expect(s.active).toBe(1);
    expect((s.fields[1] as { cursor: number }).cursor).toBe(2);
    s = run(s, { type: "up" });
    expect(s.active).toBe(0);
    s = run(s, { type: "down" }, { type: "down" }, { type: "down" });
    expect(s.active).toBe(2);
    s = run(s, { type: "down" });
    expect(s.active).toBe(3);
    s = run(s, { type: "down" });
    expect(s.active).toBe(3);
    expect(formValues(s).c).toBe("y");
    s = run(s, { type: "prev" }, { type: "up" });
    expect(s.active).toBe(1);
    expect(formValues(s)).toMatchObject({ many: "ab\ncd", t: true });
  });
});
