import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import { Box, Text, render } from "ink";
import { createElement, useState, type ReactNode } from "react";
import { Screen } from "../../scripts/bench/screen.ts";

/**
 * The frame benchmarks' virtual screen (scripts/bench/screen.ts) against Ink itself: what Ink
 * writes, frame after frame, with the dashboard's options (alternate screen, incremental
 * rendering: a changed line written from its first changed column), reads on the screen as the
 * frame Ink drew.
 */

const COLS = 60;
const ROWS = 12;

class Tty extends Writable {
  isTTY = true;
  columns = COLS;
  rows = ROWS;
  readonly screen = new Screen(COLS, ROWS);
  bytes = "";
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.screen.write(String(chunk));
    this.bytes += String(chunk);
    cb();
  }
}

class Keyboard extends EventEmitter {
  isTTY = true;
  setRawMode() {}
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => null;
}

const NAMES = ["bravo-两个字", "delta ●", ...Array.from({ length: 20 }, (_, i) => `agent-${String(i).padStart(3, "0")}`)];
const VISIBLE = 9;

/** The list scrolled to keep `sel` in view, as the dashboard's does: the lines Ink draws for (`sel`, `n`). */
function lines(sel: number, n: number): string[] {
  const top = Math.max(0, sel - VISIBLE + 1);
  const rows = NAMES.slice(top, top + VISIBLE).map((name, i) => `${top + i === sel ? "›" : " "} ${name.padEnd(14)} task ${top + i === 2 ? n : 0}`);
  return [" troupe · list", ...rows, " q quit"];
}

let set: (s: { sel: number; n: number }) => void = () => undefined;
function List(): ReactNode {
  const [s, setS] = useState({ sel: 0, n: 0 });
  set = setS;
  const [title, ...rows] = lines(s.sel, s.n);
  const footer = rows.pop()!;
  return (
    <Box flexDirection="column" width={COLS} height={ROWS}>
      <Text bold color="cyan">
        {title}
      </Text>
      {rows.map((row, i) => (
        <Text key={i} inverse={row.startsWith("›")} bold={row.startsWith("›")}>
          {row.slice(0, 2)}
          <Text color="green">{row.slice(2, 17)}</Text>
          <Text color="gray">{row.slice(17)}</Text>
        </Text>
      ))}
      <Text dimColor>{footer}</Text>
    </Box>
  );
}

/** Waits until `cond` holds (Ink draws a frame within its 34 ms throttle; a loaded machine may take longer), at most 5 s. */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}
const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

describe("the frame benchmarks' virtual screen", () => {
  test("reads Ink's incremental frames as the frames Ink drew, and sees each selection move in the rows the frame changed, as the list scrolls too", async () => {
    const stdout = new Tty();
    const ink = render(createElement(List), {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new Keyboard() as unknown as NodeJS.ReadStream,
      alternateScreen: true,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: true,
      interactive: true,
    });
    try {
      const shown = () => Array.from({ length: ROWS }, (_, y) => stdout.screen.row(y));
      const expected = (sel: number, n: number) => Array.from({ length: ROWS }, (_, y) => lines(sel, n)[y]?.trimEnd() ?? "");
      await until(() => same(shown(), expected(0, 0)));
      expect(shown()).toEqual(expected(0, 0));
      let partial = 0;
      // down the list (it scrolls once the selection reaches the last row shown) and back up
      for (let step = 1; step <= 2 * NAMES.length - 2; step++) {
        const sel = step < NAMES.length ? step : 2 * NAMES.length - 2 - step;
        stdout.screen.takeDirty();
        stdout.bytes = "";
        set({ sel, n: step });
        await until(() => same(shown(), expected(sel, step)));
        expect(shown()).toEqual(expected(sel, step));
        // the selected row is among the rows the frame changed
        const selRow = lines(sel, step).find((l) => l.startsWith("›"))!.trimEnd();
        expect(stdout.screen.takeDirty().map((y) => stdout.screen.row(y))).toContain(selRow);
        // what the old harness looked for: the row's text in the bytes written (escapes left out)
        if (!stdout.bytes.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, "").includes(selRow.slice(2))) partial++;
      }
      // Ink wrote the selected row of some of those frames from its first changed column (as the
      // list scrolls, the row under the selection changes only from the name's last digits): the
      // bytes alone did not tell
      expect(partial).toBeGreaterThan(5);
    } finally {
      ink.unmount();
    }
  });

  test("cursor moves, erases, wide characters, wrapping, saving the cursor and scrolling", () => {
    const s = new Screen(10, 3);
    s.write("abcdefghij"); // fills the row; the cursor waits past the last column
    s.write("k");
    expect([s.row(0), s.row(1)]).toEqual(["abcdefghij", "k"]);
    s.write("\x1b[1;3H\x1b[K世x");
    expect(s.row(0)).toBe("ab世x");
    s.write("\x1b7\x1b[3;1Hsaved\x1b8!");
    expect([s.row(0), s.row(2)]).toEqual(["ab世x!", "saved"]);
    s.write("\x1b[2;1H\x1b[31mred\x1b[39m\x1b[2G\x1b[1K");
    expect(s.row(1)).toBe("  d");
    s.write("\x1b[3;1H\nnew");
    expect([s.row(0), s.row(1), s.row(2)]).toEqual(["  d", "saved", "new"]);
    s.write("\x1b]8;;https://x\x07link\x1b]8;;\x07\x1b[2J");
    expect([s.row(0), s.row(1), s.row(2)]).toEqual(["", "", ""]);
  });
});
