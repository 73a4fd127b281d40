import { Box, Text } from "ink";
import { displayWidth, truncate } from "../../../output/text.ts";
import { sanitize, sanitizeLines } from "../../../output/sanitize.ts";
import { ChoiceFieldView } from "./ChoiceFieldView.tsx";
import { ToggleFieldView } from "./ToggleFieldView.tsx";
import type { Field, FormState } from "../form.ts";
import { tint, useTheme } from "../theme.ts";
import { TextFieldView } from "./TextFieldView.tsx";

export interface FormViewProps {
  form: FormState;
  width: number;
  /** Rows a multi-line field may take. */
  fieldRows: number;
  /** Extra lines shown above a field's label, by field id (e.g. the question it answers). */
  notes?: Readonly<Record<string, string>>;
  /** Rows available: when the fields do not fit, the ones from just before the active field on are shown. */
  height?: number;
}

function noteRows(note: string | undefined, width: number): number {
  if (!note) return 0;
  return sanitizeLines(note).split("\n").reduce((n, l) => n + Math.max(1, Math.ceil(displayWidth(l) / Math.max(1, width))), 0);
}

function fieldRowsOf(f: Field, active: boolean, fieldRows: number): number {
  if (f.kind === "text") return 1 + (active ? Math.min(fieldRows, f.value.split("\n").length) : 1);
  if (f.kind === "choice") return 2 + (active ? f.options.filter((o) => o.disabled).length : 0);
  return 2;
}

/** The first field to show so that the active one fits in `height` rows. */
function firstShownField(form: FormState, width: number, fieldRows: number, height: number, notes?: Readonly<Record<string, string>>): number {
  const rows = form.fields.map((f, i) => noteRows(notes?.[f.id], width) + fieldRowsOf(f, i === form.active, fieldRows));
  let first = 0;
  const upTo = (from: number) => rows.slice(from, form.active + 1).reduce((a, b) => a + b, 0);
  while (first < form.active && upTo(first) > height - 1) first++;
  return first;
}

/** Every field of a form with its label; the active one marked and editable. */
export function FormView({ form, width, fieldRows, notes, height }: FormViewProps) {
  const theme = useTheme();
  const first = height === undefined ? 0 : firstShownField(form, width, fieldRows, height, notes);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {first > 0 ? <Text dimColor>{`  (${first} more above)`}</Text> : null}
      {form.fields.slice(first).map((f, j) => {
        const i = first + j;
        const active = i === form.active;
        const note = notes?.[f.id];
        return (
          <Box key={f.id} flexDirection="column">
            {note ? (
              <Text wrap="wrap" bold>
                {/* a note is what the field answers: an agent's question, its options, a request's text */}
                {sanitizeLines(note)}
              </Text>
            ) : null}
            <Text wrap="truncate-end" color={tint(theme, active ? "cyan" : "gray")} bold={active}>
              {truncate(sanitize(f.label), width)}
            </Text>
            {f.kind === "text" ? (
              <TextFieldView field={f} active={active} width={width} maxRows={active ? fieldRows : 1} />
            ) : f.kind === "choice" ? (
              <ChoiceFieldView field={f} active={active} width={width} />
            ) : (
              <ToggleFieldView field={f} active={active} />
            )}
          </Box>
        );
      })}
      {form.error ? (
        <Text wrap="truncate-end" color={tint(theme, "red")} bold>
          {theme.ascii ? "error: " : "✗ "}
          {sanitize(form.error)}
        </Text>
      ) : null}
    </Box>
  );
}
