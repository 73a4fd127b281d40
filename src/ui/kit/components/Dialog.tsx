import type { ReactNode } from "react";
import { Box, Text } from "ink";
import { truncate } from "../../../output/text.ts";
import { sanitize } from "../../../output/sanitize.ts";
import { useTheme } from "../theme.ts";

export interface DialogProps {
  title: string;
  width: number;
  height: number;
  /** The keys that work here, on the last line. */
  footer: string;
  children: ReactNode;
}

/** A framed box taking the main area; its content gets `height - 4` rows. */
export function Dialog({ title, width, height, footer, children }: DialogProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle={theme.ascii ? "classic" : "round"} paddingX={1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {/* a title may name what an agent wrote (its question, its proposal): drawn sanitised, as every dialog's is */}
        {truncate(sanitize(title), width - 4)}
      </Text>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {children}
      </Box>
      <Text dimColor wrap="truncate-end">
        {truncate(footer, width - 4)}
      </Text>
    </Box>
  );
}

/** Rows and columns inside a Dialog of the given size. */
export function dialogInner(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(10, width - 4), height: Math.max(1, height - 4) };
}
