import { Box, Text } from "ink";
import { truncate, wrapText } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import type { RequestLine } from "../mirror/request-lines.ts";
import { tint, useTheme, type Colour } from "../kit/theme.ts";

export interface RequestLinesViewProps {
  lines: readonly RequestLine[];
  width: number;
  /** Rows it may take; lines beyond end with a count of those left out. */
  height: number;
}

const COLOUR: Record<RequestLine["kind"], Colour | undefined> = { head: "yellow", command: "cyan", del: "red", add: "green", plain: undefined, dim: "gray" };

/** Rows of `lines` wrapped to `width`: what `RequestLinesView` draws, counted before drawing. */
export function requestRows(lines: readonly RequestLine[], width: number): { text: string; kind: RequestLine["kind"] }[] {
  return lines.flatMap((l) => wrapText(sanitize(l.text), Math.max(1, width)).map((text) => ({ text, kind: l.kind })));
}

/** What an agent asks (a tool and its input, questions, a plan), wrapped, cut to `height` rows. */
export function RequestLinesView({ lines, width, height }: RequestLinesViewProps) {
  const theme = useTheme();
  const rows = requestRows(lines, width);
  const cut = rows.length > height;
  const shown = rows.slice(0, cut ? Math.max(0, height - 1) : height);
  return (
    <Box flexDirection="column" width={width} height={Math.min(height, rows.length)} overflow="hidden">
      {shown.map((r, i) => (
        <Text key={i} wrap="truncate-end" color={tint(theme, COLOUR[r.kind])} bold={r.kind === "head"}>
          {r.text}
        </Text>
      ))}
      {cut ? <Text dimColor wrap="truncate-end">{truncate(`… ${rows.length - shown.length} more lines`, width)}</Text> : null}
    </Box>
  );
}
