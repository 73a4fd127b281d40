import { memo } from "react";
import { Box, Text } from "ink";
import { useTheme } from "../theme.ts";

export interface VerticalRuleProps {
  height: number;
}

/** The line between two panes; memoised, so a frame that changes either pane leaves it (and its rows) as they were. */
export const VerticalRule = memo(function VerticalRule({ height }: VerticalRuleProps) {
  const theme = useTheme();
  const bar = theme.ascii ? "|" : "│";
  return (
    <Box flexDirection="column" width={1} height={height}>
      <Text dimColor>{`${bar}\n`.repeat(height).trimEnd()}</Text>
    </Box>
  );
});
