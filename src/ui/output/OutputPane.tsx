import { Box, Text } from "ink";
import { fit } from "../../output/text.ts";
import type { Row } from "./scroll.ts";
import { kindColour, tint, useTheme } from "../shared/theme.ts";
import { PaneTitle } from "../shared/components/PaneTitle.tsx";

export interface OutputPaneProps {
  title: string;
  rows: readonly Row[];
  width: number;
  height: number;
  focused: boolean;
  /** Shown in place of rows when there are none. */
  empty: string;
}

/** Only the visible window of an agent's output, already wrapped to `width`. */
export function OutputPane({ title, rows, width, height, focused, empty }: OutputPaneProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {rows.length === 0 && height > 1 ? (
        <Text wrap="truncate-end" dimColor>
          {` ${empty}`}
        </Text>
      ) : null}
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate-end" color={tint(theme, kindColour(r.kind))}>
          {fit(r.text, width)}
        </Text>
      ))}
    </Box>
  );
}
