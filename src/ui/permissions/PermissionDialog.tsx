import { Box, Text } from "ink";
import { truncate, wrapText } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import { questionsOf, requestLines } from "../mirror/request-lines.ts";
import type { PermissionModal } from "./permission-form.ts";
import type { ChoiceField, TextField } from "../kit/form.ts";
import { tint, useTheme } from "../kit/theme.ts";
import { Dialog, dialogInner } from "../kit/components/Dialog.tsx";
import { FormView } from "../kit/components/FormView.tsx";
import { RequestLinesView } from "./RequestLinesView.tsx";
import { TextFieldView } from "../kit/components/TextFieldView.tsx";

export interface PermissionDialogProps {
  modal: PermissionModal;
  cwd: string | null;
  width: number;
  height: number;
}

const TITLE = { tool: "Allow", question: "Questions from", plan: "Plan from" } as const;

/** The decision's choices as rows: the selected one marked; a long one (the rule allow always adds) wraps, never cut. */
function choiceRows(field: ChoiceField, active: boolean, width: number, ascii: boolean): { text: string; on: boolean; deny: boolean }[] {
  return field.options.flatMap((o, i) => {
    const on = i === field.index;
    const mark = on && active ? (ascii ? ">" : "›") : " ";
    const dot = ascii ? (on ? "(*)" : "( )") : on ? "●" : "○";
    const head = `${mark} ${dot} `;
    return wrapText(sanitize(o.label), Math.max(1, width - head.length)).map((t, j) => ({ text: (j === 0 ? head : " ".repeat(head.length)) + t, on, deny: o.value === "deny" }));
  });
}

function Choices({ rows, active }: { rows: ReturnType<typeof choiceRows>; active: boolean }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate-end" bold={r.on} inverse={r.on && active && theme.color} color={tint(theme, r.deny ? "red" : undefined)}>
          {r.text}
        </Text>
      ))}
    </Box>
  );
}

/** A tool call or a plan: what it is, then allow once / allow always / deny (approve / send back) and the reason. */
function DecisionBody({ modal, cwd, width, height }: PermissionDialogProps) {
  const theme = useTheme();
  const [choice, reason] = modal.form.fields as [ChoiceField, TextField];
  const reasonActive = modal.form.active === 1;
  const reasonRows = reasonActive ? Math.min(3, Math.max(1, reason.value.split("\n").length)) : 1;
  const choices = choiceRows(choice, !reasonActive, width, theme.ascii);
  const formRows = 1 + choices.length + 1 + reasonRows + (modal.form.error ? 1 : 0);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <RequestLinesView lines={requestLines(modal.request, cwd)} width={width} height={Math.max(1, height - formRows)} />
      <Text> </Text>
      <Choices rows={choices} active={!reasonActive} />
      <Text wrap="truncate-end" color={tint(theme, reasonActive ? "cyan" : "gray")} bold={reasonActive}>
        {truncate(reason.label, width)}
      </Text>
      <TextFieldView field={reason} active={reasonActive} width={width} maxRows={reasonRows} />
      {modal.form.error ? (
        <Text wrap="truncate-end" color={tint(theme, "red")} bold>
          {theme.ascii ? "error: " : "✗ "}
          {modal.form.error}
        </Text>
      ) : null}
    </Box>
  );
}

/** AskUserQuestion: each question above its fields, with its options' descriptions. */
function QuestionBody({ modal, width, height }: PermissionDialogProps) {
  const notes: Record<string, string> = {};
  questionsOf(modal.request.input).forEach((q, i) => {
    const first = modal.form.fields.find((f) => f.id === `q:${i}` || f.id === `q:${i}:0` || f.id === `o:${i}`);
    const described = q.options.filter((o) => o.description).map((o) => `${o.label}: ${o.description}`);
    if (first) notes[first.id] = `${i + 1}. ${q.question}${q.multiSelect ? " (tick any: space)" : ""}${described.length ? `\n   ${described.join(" · ")}` : ""}`;
  });
  return <FormView form={modal.form} width={width} fieldRows={3} notes={notes} height={height} />;
}

export function PermissionDialog(props: PermissionDialogProps) {
  const { modal, width, height } = props;
  const inner = dialogInner(width, height);
  const r = modal.request;
  const waiting = modal.waiting > 1 ? ` · the first of ${modal.waiting} waiting` : "";
  const title = `${TITLE[r.kind]} ${r.agentName}${r.kind === "tool" ? ` to use ${r.toolName}?` : ""}${waiting}`;
  const footer = modal.busy
    ? "sending…"
    : r.kind === "question"
      ? "enter next (sends on the last) · ←/→ choose · space ticks · ctrl+s send · esc later (it keeps waiting)"
      : "↑/↓ choose · enter takes it · tab reason · esc later (it keeps waiting)";
  const body = { ...props, width: inner.width, height: inner.height };
  return (
    <Dialog title={title} width={width} height={height} footer={footer}>
      {r.kind === "question" ? <QuestionBody {...body} /> : <DecisionBody {...body} />}
    </Dialog>
  );
}
