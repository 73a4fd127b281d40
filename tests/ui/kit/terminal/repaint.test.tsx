import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { createElement, type ReactElement } from "react";
import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import chalk from "chalk";
import { repaintCell, type InkNode } from "../../../../src/ui/kit/terminal/repaint.ts";

const level = chalk.level;
beforeAll(() => {
  chalk.level = 1; // colours on, as on a terminal: the repainted cells must carry them
});
afterAll(() => {
  chalk.level = level; // Ink's chalk is one for the whole run
});

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

const ROWS = 6;

/** A screen of ROWS rows like the dashboard's: a title, a list in a clipping box beside a pane; `cell` holds "12s". */
function scene(cell: { node: InkNode | null }, over: { text?: string; clipWidth?: number } = {}): ReactElement {
  const ref = (n: InkNode | null) => void (cell.node = n);
  const rows = Array.from({ length: 4 }, (_, i) =>
    i === 1 ? (
      <Text key={i} wrap="truncate-end" bold color="green">
        {`› row ${i} · `}
        <Text color="gray">{createElement("ink-text", { ref }, "12s")}</Text>
        {over.text ?? " · after"}
      </Text>
    ) : (
      <Text key={i}>{`  row ${i}`}</Text>
    ),
  );
  return (
    <Box flexDirection="column" width={60} height={ROWS}>
      <Text>title line</Text>
      <Box flexDirection="row">
        <Box width={over.clipWidth ?? 30} height={4} overflow="hidden">
          <Box flexDirection="column" width={30} height={4} flexShrink={0}>
            {rows}
          </Box>
        </Box>
        <Text>│ pane</Text>
      </Box>
    </Box>
  );
}

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

function mount(el: ReactElement) {
  const inst = render(el);
  unmount = () => inst.unmount();
  return inst;
}

test("the bytes draw the new text where Ink draws it, styled as Ink styles it, and later frames draw it too", () => {
  const cell = { node: null as InkNode | null };
  const inst = mount(scene(cell));
  const bytes = repaintCell(cell.node!, "13s", ROWS);
  expect(bytes).not.toBeNull();
  const m = /^\x1b7\x1b\[(\d+);(\d+)H(.*)\x1b8$/s.exec(bytes!)!;
  const [row, col, styled] = [Number(m[1]) - 1, Number(m[2]) - 1, m[3]!];
  // the colours of the <Text>s around it (gray inside bold green), around the text alone
  expect(strip(styled)).toBe("13s");
  expect(styled).toBe(chalk.bold(chalk.green(chalk.gray("13s"))));
  // Ink's next frame (from its own tree) has the new text at exactly that row and column
  inst.rerender(scene(cell));
  const line = strip(inst.lastFrame()!.split("\n")[row]!);
  expect(line.slice(col, col + 3)).toBe("13s");
  expect(line).toContain("› row 1 · 13s · after");
});

test("the same text needs nothing drawn", () => {
  const cell = { node: null as InkNode | null };
  mount(scene(cell));
  expect(repaintCell(cell.node!, "12s", ROWS)).toBe("");
});

test("what cannot be drawn in place is left to a render: another width, a cut line, a clipped row, a frame not filling the screen", () => {
  const cell = { node: null as InkNode | null };
  mount(scene(cell));
  expect(repaintCell(cell.node!, "1m", ROWS)).toBeNull();
  expect(repaintCell(cell.node!, "1\n2", ROWS)).toBeNull();
  expect(repaintCell(cell.node!, "13s", ROWS + 1)).toBeNull();
  unmount?.();

  mount(scene(cell, { text: " · a tail far too long for the list's thirty columns" }));
  expect(repaintCell(cell.node!, "13s", ROWS)).toBeNull();
  unmount?.();

  // a box that clips the cell off
  mount(scene(cell, { clipWidth: 12 }));
  expect(repaintCell(cell.node!, "13s", ROWS)).toBeNull();
  // and the tree was left as it was
  expect(cell.node!.childNodes![0]!.nodeValue).toBe("12s");
});
