import { expect, test } from "bun:test";
import { render } from "ink-testing-library";
import { ConfirmDialog } from "../../../../src/ui/kit/components/ConfirmDialog.tsx";
import { FormView } from "../../../../src/ui/kit/components/FormView.tsx";
import { MessagesDialog } from "../../../../src/ui/agents/dialogs/components/MessagesDialog.tsx";
import { StatusBar } from "../../../../src/ui/shell/StatusBar.tsx";
import { ChoiceFieldView } from "../../../../src/ui/kit/components/ChoiceFieldView.tsx";
import { makeForm, textField } from "../../../../src/ui/kit/form.ts";

// issue 32: what an agent wrote (a question, a message, a proposal's title, an error) reached the
// dashboard's dialogs as it was. Ink 8 drops most escapes itself but keeps SGR and OSC 8: an
// agent's hyperlink (its target hidden behind other text) and concealed text reached the
// terminal. The shared kit draws it sanitised.
const EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b2J\u202e\x1b]8;;https://evil.invalid\x07link\x1b]8;;\x07\x1b[8mhidden\x1b[0m";
/** A frame without Ink's own colour and style (SGR), so that only what the text brought is left. */
const unstyled = (frame: string | undefined) => (frame ?? "").replace(/\x1b\[[0-9;]*m/g, "");
const HOSTILE = /[\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/;

test("a dialog's title and question, a form's note, label and error, a message and the status line carry no escape of an agent's", () => {
  const form = { ...makeForm([textField("a", `label${EVIL}`)]), error: `refused${EVIL}` };
  const frames = [
    render(<ConfirmDialog title={`title${EVIL}`} question={`merge${EVIL}?\nsecond line`} busy={false} width={60} height={10} />),
    render(<FormView form={form} width={60} fieldRows={2} notes={{ a: `which${EVIL} one?\r\nnext` }} />),
    render(
      <MessagesDialog
        modal={{ kind: "messages", title: "messages", replyTo: null, busy: false, form: makeForm([]), messages: [{ id: "msg_1", seq: 1, fromId: "ag_1", fromName: "evil", toId: "user", toName: "user", text: `note${EVIL}\nmore`, status: "queued", createdAt: 0, deliveredAt: null }] }}
        width={60}
        height={12}
      />,
    ),
    render(<StatusBar status={{ kind: "error", text: `failed${EVIL}` }} hint="" width={60} />),
    // AskUserQuestion's options are the agent's words
    render(<ChoiceFieldView field={{ kind: "choice", id: "q", label: "q", index: 0, options: [{ value: "a", label: `yes${EVIL}` }, { value: "b", label: `no${EVIL}`, disabled: true, note: `why${EVIL}` }] }} active width={60} />),
  ].map((r) => {
    const frame = r.lastFrame() ?? "";
    r.unmount();
    return frame;
  });
  for (const f of frames) {
    expect(f).not.toContain("\x1b]8;");
    expect(f).not.toContain("\x1b[8m");
    expect(unstyled(f)).not.toMatch(HOSTILE);
  }
  expect(frames[0]).toContain("title");
  expect(frames[0]).toContain("merge");
  expect(frames[0]).toContain("second line");
  expect(frames[1]).toContain("which");
  expect(frames[1]).toContain("next");
  expect(frames[1]).toContain("refused");
  expect(frames[2]).toContain("note");
  expect(frames[3]).toContain("failed");
  expect(frames[4]).toContain("yes");
  expect(frames[4]).toContain("why");
});
