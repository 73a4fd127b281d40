import { memo } from "react";
import { Box, Text } from "ink";
import { fit } from "../../output/text.ts";
import type { LineKind } from "../../output/lines.ts";
import type { Row } from "./scroll.ts";
import { kindColour, tint, useTheme } from "../kit/theme.ts";
import { PaneTitle } from "../kit/components/PaneTitle.tsx";

export interface OutputPaneProps {
  title: string;
  rows: readonly Row[];
  width: number;
  height: number;
  focused: boolean;
  /** Shown in place of rows when there are none. */
  empty: string;
}

/** One row of output; memoised and keyed by its line (`Row.key`), so a row that only moved up is not drawn again. */
const OutputRow = memo(function OutputRow({ text, kind, width }: { text: string; kind: LineKind; width: number }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" color={tint(theme, kindColour(kind))}>
      {fit(text, width)}
    </Text>
  );
});

/** Only the visible window of an agent's output, already wrapped to `width`. */
export function OutputPane({ title, rows, width, height, focused, empty }: OutputPaneProps) {
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {rows.length === 0 && height > 1 ? (
        <Text wrap="truncate-end" dimColor>
          {` ${empty}`}
        </Text>
      ) : null}
      {rows.map((r) => (
        <OutputRow key={r.key} text={r.text} kind={r.kind} width={width} />
      ))}
    </Box>
  );
}
