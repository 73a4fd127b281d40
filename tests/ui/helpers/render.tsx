import type { ReactElement } from "react";
import { parseDiff } from "../../../src/git/diff-lines.ts";
import { render as inkRender } from "ink-testing-library";
import { App } from "../../../src/ui/shell/app.tsx";
import { DaemonMirror } from "../../../src/ui/mirror/daemon-mirror.ts";
import type { LineParser } from "../../../src/output/lines.ts";
import { ThemeContext, type Theme } from "../../../src/ui/kit/theme.ts";
import type { DashboardDeps, ProviderChoice } from "../../../src/ui/mirror/deps.ts";
import type { UiState } from "../../../src/ui/shell/ui-state.ts";
import type { FakeClient } from "./fake-client.ts";

/** Keys as a terminal sends them. */
export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  left: "\x1b[D",
  right: "\x1b[C",
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  backspace: "\x7f",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  home: "\x1b[H",
  end: "\x1b[F",
  ctrlC: "\x03",
  ctrlJ: "\n",
  ctrlS: "\x13",
  pasteStart: "\x1b[200~",
  pasteEnd: "\x1b[201~",
} as const;

// a guard against hanging, not a speed check: a loaded 2-core machine can take seconds to a first frame
const DEADLINE_MS = 10_000;

/** Polls `cond` until it holds or the deadline passes (then throws with `what`). */
export async function waitFor(cond: () => boolean, what: () => string, ms = DEADLINE_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await Bun.sleep(5);
  }
}

export interface Screen {
  frame(): string;
  /** Waits until the screen shows `text` (or matches). */
  waitFor(text: string | RegExp, ms?: number): Promise<string>;
  waitForNot(text: string | RegExp, ms?: number): Promise<string>;
  /** Types keys: each string goes to stdin as one read. */
  press(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  unmount(): void;
  /** Redraws at a new terminal size. */
  resize(columns: number, rows: number): Promise<void>;
  feed: DaemonMirror;
  exited: () => boolean;
  bells: () => number;
  /** The texts the editor was opened on. */
  edits: string[];
  /** The agents taken over with `t` (ids). */
  attaches: string[];
}

export const defaultParser: LineParser = (line) => {
  // A tiny provider: JSON lines {"text":..} or {"tool":..,"input":..}, anything else raw.
  try {
    const v = JSON.parse(line) as { text?: string; tool?: string; input?: string; error?: string };
    if (v.text !== undefined) return [{ kind: "text", text: v.text }];
    if (v.tool !== undefined) return [{ kind: "tool_use", name: v.tool, input: v.input ?? "" }];
    if (v.error !== undefined) return [{ kind: "error", message: v.error }];
  } catch {
    // raw
  }
  return [{ kind: "raw", line }];
};

export interface RenderAppOptions {
  columns?: number;
  rows?: number;
  theme?: Theme;
  providers?: ProviderChoice[];
  /** The agent's diff as git prints it, a line each. */
  diff?: string[];
  initial?: Partial<UiState>;
  /** Stands in for $EDITOR: gets the file's text, returns what was saved. */
  editor?: (text: string, name: string) => string;
}

/** The dashboard on a fake daemon, at a fixed size; resolves once the first agents frame is drawn. */
export async function renderApp(client: FakeClient, opts: RenderAppOptions = {}): Promise<Screen> {
  let bells = 0;
  const edits: string[] = [];
  const attaches: string[] = [];
  const feed = new DaemonMirror(client, () => defaultParser, { onAttention: () => bells++, retryMaxMs: 50 });
  const deps: DashboardDeps = {
    client,
    workspace: "~/ws",
    parserFor: () => defaultParser,
    listProviders: async () =>
      opts.providers ?? [
        { name: "claude", displayName: "Claude Code", installed: true, version: "2.1.0", install: "npm i -g @anthropic-ai/claude-code" },
        { name: "aider", displayName: "Aider", installed: false, install: "pipx install aider-chat" },
        { name: "generic", displayName: "Shell command", installed: true, install: "" },
      ],
    // parsed as the daemon parses what git prints (src/git/diff-lines.ts)
    loadDiff: async () => parseDiff(`${(opts.diff ?? ["diff --git a/x b/x", "+added line", "-removed line"]).join("\n")}\n`, "committed"),
    runs: { detail: (r) => client.detail(r), dispatch: (r) => client.dispatch(r), stopDispatch: (r) => client.stopDispatch(r) },
    attach: async (id) => {
      attaches.push(id);
      return { agent: client.agents.get(id)!, exitCode: 0, problem: null };
    },
    editText: async (text, name) => {
      edits.push(text);
      return opts.editor ? opts.editor(text, name) : text;
    },
    env: { PATH: "/bin" },
  };
  feed.start();
  const theme = opts.theme ?? { color: true, ascii: false };
  let exited = false;
  const tree = (columns: number, rows: number): ReactElement => (
    <ThemeContext.Provider value={theme}>
      <App deps={deps} mirror={feed} size={{ columns, rows }} initial={opts.initial} onQuit={() => (exited = true)} />
    </ThemeContext.Provider>
  );
  let columns = opts.columns ?? 120;
  let rows = opts.rows ?? 30;
  const inst = inkRender(tree(columns, rows));
  // ink-testing-library's stdout is 100 columns and has no rows: give it the size under test.
  Object.defineProperty(inst.stdout, "columns", { get: () => columns, configurable: true });
  Object.defineProperty(inst.stdout, "rows", { get: () => rows, configurable: true });
  inst.rerender(tree(columns, rows));
  const frame = () => inst.lastFrame() ?? "";
  const has = (t: string | RegExp) => (typeof t === "string" ? frame().includes(t) : t.test(frame()));
  const screen: Screen = {
    frame,
    async waitFor(t, ms) {
      await waitFor(() => has(t), () => `${String(t)} on screen:\n${frame()}`, ms);
      return frame();
    },
    async waitForNot(t, ms) {
      await waitFor(() => !has(t), () => `${String(t)} to go from screen:\n${frame()}`, ms);
      return frame();
    },
    async press(...keys) {
      for (const k of keys) {
        const before = inst.frames.length;
        inst.stdin.write(k);
        // A lone ESC is held by Ink for ~20 ms (it may start a sequence): wait until it is handled.
        if (k === KEY.esc) await waitFor(() => inst.frames.length > before, () => "esc handled", 1000).catch(() => undefined);
        // Yield so React commits this key's update before the next key is read (a person types slower).
        await new Promise((r) => setImmediate(r));
      }
    },
    async type(text) {
      for (const ch of text) await screen.press(ch);
    },
    async resize(c, r) {
      columns = c;
      rows = r;
      inst.rerender(tree(columns, rows));
      await new Promise((res) => setImmediate(res));
    },
    unmount() {
      feed.stop();
      inst.unmount();
      inst.cleanup();
    },
    feed,
    exited: () => exited,
    bells: () => bells,
    edits,
    attaches,
  };
  await screen.waitFor(/Agents \(/);
  // The first snapshot has landed once the list says so (or no agents exist).
  await waitFor(() => feed.getView().entities.loaded, () => "first snapshot");
  return screen;
}
