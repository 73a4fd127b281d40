import { Box, Text } from "ink";
import { truncate } from "../../output/text.ts";
import { Dialog, dialogInner } from "../kit/components/Dialog.tsx";

export interface HelpOverlayProps {
  width: number;
  height: number;
  /** First line shown when it does not all fit. */
  top: number;
  /** Section titles and key rows, from the shell's key tables. */
  lines: readonly HelpLine[];
}

export interface HelpLine {
  text: string;
  title: boolean;
}

/** How far the help can scroll in a dialog of this size (0 when it all shows). */
export function helpScrollMax(width: number, height: number, lines: readonly HelpLine[]): number {
  const inner = dialogInner(width, height);
  const n = lines.length;
  if (inner.width >= 110 && Math.ceil(n / 2) <= inner.height) return 0;
  return Math.max(0, n - inner.height);
}

/** The controllers' bindings, as the key handler uses them. */
export function HelpOverlay({ width, height, top, lines }: HelpOverlayProps) {
  const inner = dialogInner(width, height);
  // Two columns when wide enough for all of it to fit, else one (cut, with a note).
  const twoCols = inner.width >= 110 && lines.length > inner.height && Math.ceil(lines.length / 2) <= inner.height;
  const colWidth = twoCols ? Math.floor((inner.width - 2) / 2) : inner.width;
  const perCol = twoCols ? Math.ceil(lines.length / 2) : lines.length;
  const shown = twoCols ? lines : lines.slice(Math.min(top, Math.max(0, lines.length - inner.height)));
  const cols = twoCols ? [lines.slice(0, perCol), lines.slice(perCol)] : [shown];
  const more = !twoCols && lines.length > inner.height;
  return (
    <Dialog title="Keys" width={width} height={height} footer={`${more ? "↑/↓ scroll · " : ""}esc/?/q close`}>
      <Box flexDirection="row">
        {cols.map((col, ci) => (
          <Box key={ci} flexDirection="column" width={colWidth} marginRight={ci === 0 && twoCols ? 2 : 0}>
            {col.slice(0, inner.height).map((l, i) => (
              <Text key={i} bold={l.title} wrap="truncate-end">
                {truncate(l.text, colWidth) || " "}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Dialog>
  );
}
