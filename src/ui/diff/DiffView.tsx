import { Box, Text } from "ink";
import { fit, sanitize } from "../../output/text.ts";
import { PaneTitle } from "../shared/components/PaneTitle.tsx";
import type { DiffState } from "./diff-ui.ts";
import { tint, useTheme, type Colour } from "../shared/theme.ts";

export interface DiffViewProps {
  diff: DiffState;
  width: number;
  height: number;
}

function lineColour(l: string): Colour | undefined {
  if (l.startsWith("+++") || l.startsWith("---") || l.startsWith("diff ") || l.startsWith("index ")) return "magenta";
  if (l.startsWith("+")) return "green";
  if (l.startsWith("-")) return "red";
  if (l.startsWith("@@")) return "cyan";
  if (l.startsWith("──")) return "yellow";
  return undefined;
}

/** Rows of the diff a view of `height` shows at most (one is the title). */
export function diffRows(height: number): number {
  return Math.max(1, height - 1);
}

/** The agent's branch against its base, scrollable; long lines are cut. */
export function DiffView({ diff, width, height }: DiffViewProps) {
  const theme = useTheme();
  const rows = diffRows(height);
  const lines = diff.lines ?? [];
  const top = Math.min(diff.top, Math.max(0, lines.length - rows));
  const pos = lines.length > rows ? ` · ${top + 1}-${Math.min(lines.length, top + rows)} of ${lines.length}` : "";
  const body = diff.error ? `✗ ${diff.error}` : diff.lines === null ? "loading the diff…" : lines.length === 0 ? "no changes" : null;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={`${diff.title}${pos}   (esc back)`} width={width} focused />
      {body !== null ? (
        <Text color={tint(theme, diff.error ? "red" : undefined)} wrap="truncate-end">{` ${body}`}</Text>
      ) : (
        lines.slice(top, top + rows).map((l, i) => (
          <Text key={top + i} color={tint(theme, lineColour(l))} wrap="truncate-end">
            {fit(sanitize(l), width)}
          </Text>
        ))
      )}
    </Box>
  );
}
