/**
 * A frame benchmark's inside, compiled like troupe (frames.ts builds it): a dashboard, or the Ink
 * floor program, rendering with the dashboard's Ink options into a fake terminal in this process,
 * keys written to its stdin as a terminal sends them. A keypress is timed from the key to the
 * write that shows its effect: the write after which a row it changed on a virtual screen of what
 * was written (./screen.ts) reads as the key's frame (the selection mark on the row the key moves
 * to). With incremental rendering Ink writes a changed line from its first changed column, so the
 * bytes since the key need not hold that row's text; the screen does. Every press is counted, its
 * frame recognised or not (`presses` beside `latencies`). CPU is this process's, less the screen's
 * reading. Prints one JSON line; fails on nothing.
 *
 *   harness troupe --workspace DIR [--gate PATH] [--stream-lines N] [--presses N] [--pace MS] [--idle-ms MS] [--scene keys|change]
 *   harness floor [--presses N] [--pace MS] [--idle-ms MS]
 * troupe: the daemon of DIR (TROUPE_SOCKET) is up with its agents; the newest running one is
 * selected; with --gate, touching PATH starts its output and the presses run while it streams
 * (until --stream-lines of it arrived), else they run on an idle dashboard. --scene change: instead
 * of keys, one agent on screen (not the selected one) changes, --presses times: the mirror gets it
 * with a new cost, as the daemon's `agent:updated` event would bring it, and the time is to the
 * write that shows the new cost (one row of the list redrawn). --span N: the keys walk the first N
 * rows and back (no press scrolls the list).
 * floor: a 160x50 Ink program (header, 48 memoised rows, a rule, a 48-line pane, a status line)
 * whose j/k moves a highlight: two rows repaint. Built with Ink as published (the floor).
 */
import { EventEmitter } from "node:events";
import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { Box, Text, render, useInput } from "ink";
import { createElement, memo, useState } from "react";
import type { HarnessFigures } from "./harness.ts";
import { Screen } from "./screen.ts";

const { positionals, values: o } = parseArgs({
  allowPositionals: true,
  options: {
    workspace: { type: "string" },
    gate: { type: "string" },
    "stream-lines": { type: "string", default: "100000" },
    presses: { type: "string", default: "100" },
    pace: { type: "string", default: "50" },
    "idle-ms": { type: "string", default: "2000" },
    scene: { type: "string", default: "keys" },
    span: { type: "string", default: "0" },
  },
});
const MODE = positionals[0] === "floor" ? "floor" : "troupe";
const COLS = 160;
const ROWS = 50;
const PRESSES = Number(o.presses);
const PACE_MS = Number(o.pace);
const IDLE_MS = Number(o["idle-ms"]);

/**
 * A terminal: what is written lands on a virtual screen (./screen.ts), whose changed rows a
 * keypress's frame is recognised on; a write calls back. With --presses 0 nothing is read.
 */
class Tty extends Writable {
  isTTY = true;
  columns = COLS;
  rows = ROWS;
  frames = 0;
  readonly screen = new Screen(COLS, ROWS);
  onWrite: (() => void) | null = null;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.frames++;
    if (PRESSES > 0 || this.onWrite) this.screen.write(String(chunk));
    this.onWrite?.();
    cb();
  }
}

class Keyboard extends EventEmitter {
  isTTY = true;
  isRaw = false;
  private data: string | null = null;
  setRawMode(v: boolean) {
    this.isRaw = v;
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  press(s: string) {
    this.data = s;
    this.emit("readable");
  }
}

/** This process's CPU, less the virtual screen's reading (the terminal's work, not the program's). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000 - stdout.screen.ms;
};
const stdout = new Tty();
const stdin = new Keyboard();
const inkOptions = {
  stdout: stdout as unknown as NodeJS.WriteStream,
  stdin: stdin as unknown as NodeJS.ReadStream,
  alternateScreen: true,
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: 60,
  incrementalRendering: true,
  interactive: true,
};

/** Resolves with the time from now until a write leaves a row on the screen that `shows` matches, among the rows it changed (null after `ms`). */
function until(shows: RegExp, ms: number): Promise<number | null> {
  const start = performance.now();
  stdout.screen.takeDirty();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stdout.onWrite = null;
      resolve(null);
    }, ms);
    stdout.onWrite = () => {
      const screen = stdout.screen;
      if (!screen.takeDirty().some((y) => shows.test(screen.row(y)))) return;
      clearTimeout(timer);
      stdout.onWrite = null;
      resolve(performance.now() - start);
    };
  });
}

// --- the floor: Ink drawing a screen the dashboard's size, two rows changing per key ----------------
const FLOOR_ROWS = 48;
const FloorRow = memo(function FloorRow({ i, selected }: { i: number; selected: boolean }) {
  const name = `agent-${String(i).padStart(3, "0")}`.padEnd(16);
  return (
    <Text wrap="truncate-end" inverse={selected} bold={selected}>
      {selected ? "›" : " "} <Text color="green">●</Text> {name} <Text color="green">running </Text> generic {"  5m"} <Text color="gray">task number {i}: some words</Text>
    </Text>
  );
});
const FloorPane = memo(function FloorPane() {
  return (
    <Box flexDirection="column" width={87} height={FLOOR_ROWS} overflow="hidden">
      {Array.from({ length: FLOOR_ROWS }, (_, i) => (
        <Text key={i} wrap="truncate-end">{`line ${i} of the agent's output: some text to make it look like output`}</Text>
      ))}
    </Box>
  );
});
const FloorRule = memo(function FloorRule() {
  return (
    <Box width={1} height={FLOOR_ROWS}>
      <Text dimColor>{"│\n".repeat(FLOOR_ROWS).trimEnd()}</Text>
    </Box>
  );
});
function Floor() {
  const [sel, setSel] = useState(0);
  useInput((input) => {
    if (input === "j") setSel((s) => Math.min(FLOOR_ROWS - 1, s + 1));
    if (input === "k") setSel((s) => Math.max(0, s - 1));
  });
  return (
    <Box flexDirection="column" width={COLS} height={ROWS}>
      <Text bold color="cyan">
        {" troupe · ~/floor · 48 agents · 48 running"}
      </Text>
      <Box flexDirection="row" height={FLOOR_ROWS}>
        <Box flexDirection="column" width={72} height={FLOOR_ROWS} overflow="hidden">
          {Array.from({ length: FLOOR_ROWS }, (_, i) => (
            <FloorRow key={i} i={i} selected={i === sel} />
          ))}
        </Box>
        <FloorRule />
        <FloorPane />
      </Box>
      <Text dimColor>{" j/k move · q quit"}</Text>
    </Box>
  );
}

type Figures = HarnessFigures;

/** Presses between two windows without keys (see `measurePresses`). */
const BLOCK = 10;

/**
 * Presses PRESSES keys at PACE_MS, each as `next()` says (the key, and what its frame shows),
 * timing each to its frame. After every BLOCK presses, a window as long as that block without
 * keys: what the process costs meanwhile (streams, ticks) is measured beside the presses, in
 * turns, so that a stream's drift does not land on the presses (`baseRate`).
 */
async function measurePresses(next: () => { key: string; shows: RegExp; act?: () => void }): Promise<{ latencies: number[]; cpu: number; wall: number; frames: number; baseRate: number }> {
  const latencies: number[] = [];
  let cpu = 0;
  let wall = 0;
  let frames = 0;
  let baseCpu = 0;
  let baseWall = 0;
  for (let i = 0; i < PRESSES; i += BLOCK) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const f0 = stdout.frames;
    for (let j = i; j < Math.min(PRESSES, i + BLOCK); j++) {
      const { key, shows, act } = next();
      const shown = until(shows, 2_000);
      if (act) act();
      else stdin.press(key);
      const ms = await shown;
      if (ms !== null) latencies.push(ms);
      await Bun.sleep(PACE_MS);
    }
    const blockWall = performance.now() - t0;
    cpu += cpuMs() - c0;
    wall += blockWall;
    frames += stdout.frames - f0;
    const b0 = cpuMs();
    const w0 = performance.now();
    await Bun.sleep(blockWall);
    baseCpu += cpuMs() - b0;
    baseWall += performance.now() - w0;
  }
  return { latencies, cpu, wall, frames, baseRate: baseWall > 0 ? baseCpu / baseWall : 0 };
}

/** Down the list and back up, a step a key: the key, and the position it selects. */
function walker(length: () => number): () => { key: "j" | "k"; pos: number } {
  let pos = 0;
  let down = true;
  return () => {
    const n = length();
    if (down && pos >= n - 1) down = false;
    else if (!down && pos <= 0) down = true;
    pos = Math.max(0, Math.min(n - 1, pos + (down ? 1 : -1)));
    return { key: down ? "j" : "k", pos };
  };
}

/** Idle frames: the writes made during the last `idleCpu` window (ticks repainted in place, frames). */
let idleWrites = 0;
async function idleCpu(ms: number): Promise<number> {
  const c0 = cpuMs();
  const f0 = stdout.frames;
  const t0 = performance.now();
  await Bun.sleep(ms);
  idleWrites = stdout.frames - f0;
  return (cpuMs() - c0) / (performance.now() - t0);
}

async function floor(): Promise<Figures> {
  const first = until(/agent-047/, 30_000);
  const ink = render(createElement(Floor), inkOptions);
  const firstFrameMs = (await first) ?? NaN;
  await Bun.sleep(500);
  const walk = walker(() => FLOOR_ROWS);
  const rate = await idleCpu(IDLE_MS);
  const run = await measurePresses(() => {
    const { key, pos } = walk();
    return { key, shows: new RegExp(`› ● agent-${String(pos).padStart(3, "0")}`) };
  });
  ink.unmount();
  return figures("floor", firstFrameMs, run, rate);
}

function figures(mode: Figures["mode"], firstFrameMs: number, run: Awaited<ReturnType<typeof measurePresses>>, rate: number, streamed?: number): Figures {
  return {
    mode,
    firstFrameMs,
    latencies: run.latencies,
    presses: PRESSES,
    screenMs: stdout.screen.ms,
    cpuPerPress: (run.cpu - run.baseRate * run.wall) / Math.max(1, PRESSES),
    cpuIdle: rate * 100,
    cpuPresses: (run.cpu / run.wall) * 100,
    frames: run.frames,
    idleWrites,
    windowS: run.wall / 1000,
    rssMB: process.memoryUsage.rss() / 1024 / 1024,
    streamed,
  };
}

async function troupe(): Promise<Figures> {
  const { App } = await import("../../src/ui/shell/app.tsx");
  const { DaemonMirror } = await import("../../src/ui/mirror/daemon-mirror.ts");
  const { ThemeContext } = await import("../../src/ui/kit/theme.ts");
  const { visibleAgents } = await import("../../src/ui/mirror/entities-state.ts");
  const { resolveWorkspace } = await import("../../src/workspace.ts");
  const { ensureDaemon } = await import("../../src/client/connect.ts");
  const { parserFor } = await import("../../src/output/render.ts");
  type Deps = import("../../src/ui/mirror/deps.ts").DashboardDeps;
  const client = await ensureDaemon(resolveWorkspace({ workspace: o.workspace! }));
  const total = (await client.listAgents()).length;
  const mirror = new DaemonMirror(client, parserFor);
  const refuse = () => Promise.reject(new Error("not in the benchmark"));
  const deps: Deps = {
    client,
    workspace: "~/bench",
    parserFor,
    listProviders: async () => [],
    loadDiff: async () => [],
    runs: { detail: refuse, dispatch: refuse, stopDispatch: refuse },
    editText: async (t) => t,
    attach: refuse,
    env: {},
  };
  mirror.start();
  // the first frame that has every agent (frames are drawn as differences: the text cannot tell)
  const t0 = performance.now();
  let firstFrameMs = NaN;
  const onRender = () => {
    if (Number.isNaN(firstFrameMs) && Object.keys(mirror.getView().entities.agents).length >= total) firstFrameMs = performance.now() - t0;
  };
  const ink = render(createElement(ThemeContext.Provider, { value: { color: true, ascii: false } }, createElement(App, { deps, mirror })), { ...inkOptions, onRender });
  for (let waited = 0; Number.isNaN(firstFrameMs) && waited < 60_000; waited += 5) await Bun.sleep(5);
  await Bun.sleep(1_000); // its output's history loads, the first frames settle
  const names = () => visibleAgents(mirror.getView().entities, "").map((a) => a.name);
  let list = names();
  let count = list.length;
  // --span N: the keys walk the first N rows only (no press scrolls the list), whatever its length
  const span = Number(o.span);
  const walk = walker(() => (span > 0 ? Math.min(span, list.length) : list.length));
  const expect = () => {
    // the list as the dashboard shows it, sorted again only when agents came or went: sorting
    // 1,000 agents at each press was this harness's cost, not the dashboard's
    const now = Object.keys(mirror.getView().entities.agents).length;
    if (now !== count) [list, count] = [names(), now];
    const { key, pos } = walk();
    return { key, shows: new RegExp(`› \\S [ !] ${list[pos]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`) };
  };
  let streamed: number | undefined;
  let run: Awaited<ReturnType<typeof measurePresses>>;
  let rate: number;
  if (o.gate) {
    // the streamer is the one selected at the start; the presses move the selection off it, and
    // the dashboard may let its output go then (it keeps the loaded agents' output only), so its
    // lines are counted where the daemon stored them, once the presses are done
    const streamer = mirror.getView().entities.agents;
    const streamerId = Object.values(streamer).find((a) => a.name === list[0])!.id;
    writeFileSync(o.gate, "");
    const want = Number(o["stream-lines"]);
    rate = await idleCpu(IDLE_MS); // streaming, no keys
    run = await measurePresses(expect);
    let lines = 0;
    let after: number | undefined;
    for (let waited = 0; lines < want && waited < 120_000; waited += 200) {
      for (;;) {
        const chunks = await client.output(streamerId, after === undefined ? {} : { after });
        if (!chunks.length) break;
        for (const c of chunks) lines += c.data.split("\n").length - 1;
        after = chunks.at(-1)!.id;
      }
      if (lines < want) await Bun.sleep(200);
    }
    streamed = lines;
  } else if (o.scene === "change") {
    rate = await idleCpu(IDLE_MS);
    // the second row: on screen, not selected, so its row alone changes
    const agents = mirror.getView().entities.agents;
    const changing = Object.values(agents).find((a) => a.name === list[1])!;
    const { formatCost } = await import("../../src/output/lines.ts");
    let n = 0;
    run = await measurePresses(() => {
      n++;
      // whole dollars, each unlike the last: the row's new text starts at the dollar figure (a
      // frame writes a line from its first changed column)
      const costUsd = (n % 9) + 1;
      return {
        key: "",
        shows: new RegExp(formatCost(costUsd).slice(1).replace(".", "\\.")),
        act: () => mirror.upsertAgent({ ...changing, costUsd, updatedAt: changing.updatedAt + n }),
      };
    });
  } else {
    rate = await idleCpu(IDLE_MS);
    run = await measurePresses(expect);
  }
  ink.unmount();
  mirror.stop();
  return figures("troupe", firstFrameMs, run, rate, streamed);
}

const result = MODE === "floor" ? await floor() : await troupe();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
