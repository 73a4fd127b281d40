import { Box, Text } from "ink";
import { truncate } from "../../../output/text.ts";
import { sanitize } from "../../../output/sanitize.ts";
import type { TextField } from "../form.ts";
import { useTheme } from "../theme.ts";

export interface TextFieldViewProps {
  field: TextField;
  active: boolean;
  width: number;
  /** Most rows the value may take; the rows around the cursor are shown. */
  maxRows: number;
}

/** A text value with a visible cursor (inverse, or `_` without colour); long values show the rows near the cursor. */
export function TextFieldView({ field, active, width, maxRows }: TextFieldViewProps) {
  const theme = useTheme();
  const lines = field.value.split("\n");
  const before = field.value.slice(0, field.cursor);
  const cursorLine = before.split("\n").length - 1;
  const cursorCol = before.length - before.lastIndexOf("\n") - 1;
  const first = Math.max(0, Math.min(cursorLine - maxRows + 1, lines.length - maxRows));
  const shown = lines.slice(first, first + Math.max(1, maxRows));
  const inner = Math.max(4, width - 2);
  const empty = field.value === "" && field.placeholder;
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => {
        const n = first + i;
        const prefix = i === 0 ? (active ? "> " : "  ") : "  ";
        if (!(active && n === cursorLine)) {
          const text = empty && n === 0 ? field.placeholder! : line;
          return (
            <Text key={n} wrap="truncate-end" dimColor={Boolean(empty)}>
              {prefix}
              {truncate(sanitize(text), inner)}
            </Text>
          );
        }
        // Keep the cursor in view on a long line: show the end part around it.
        const start = Math.max(0, cursorCol - inner + 2);
        const head = sanitize(line.slice(start, cursorCol));
        const at = line[cursorCol] ?? " ";
        const tail = sanitize(line.slice(cursorCol + 1));
        return (
          <Text key={n} wrap="truncate-end">
            {prefix}
            {head}
            {theme.color ? <Text inverse>{at}</Text> : "_"}
            {truncate(theme.color ? tail : at === " " ? tail : at + tail, Math.max(0, inner - head.length - 1))}
          </Text>
        );
      })}
    </Box>
  );
}
