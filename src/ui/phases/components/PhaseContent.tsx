import { Box, Text } from "ink";
import { fit } from "../../../output/text.ts";
import { PaneTitle } from "../../kit/components/PaneTitle.tsx";

export interface PhaseContentProps {
  title: string;
  /** Already wrapped to `width - 1`. */
  lines: readonly string[];
  top: number;
  width: number;
  height: number;
  focused: boolean;
}

/** The selected item's content: only the rows that show. */
export function PhaseContent({ title, lines, top, width, height, focused }: PhaseContentProps) {
  const rows = Math.max(0, height - 1);
  const first = Math.min(top, Math.max(0, lines.length - rows));
  const pos = lines.length > rows ? ` · ${first + 1}-${Math.min(lines.length, first + rows)} of ${lines.length}` : "";
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={`${title}${pos}`} width={width} focused={focused} />
      {lines.slice(first, first + rows).map((l, i) => (
        <Text key={first + i} wrap="truncate-end">
          {fit(` ${l}`, width)}
        </Text>
      ))}
    </Box>
  );
}
