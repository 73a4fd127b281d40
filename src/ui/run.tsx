import { render } from "ink";
import type { TroupeClient } from "../client/client.ts";
import { parserFor } from "../output/render.ts";
import type { Workspace } from "../workspace.ts";
import { App } from "./app.tsx";
import { closingNote } from "./closing-note.ts";
import { loadDiff } from "./diff-source.ts";
import { editInEditor } from "./editor.ts";
import { workRuns } from "./work-runs.ts";
import { Feed } from "./feed.ts";
import { listProviders } from "./providers.ts";
import { restoreTerminal } from "./terminal.ts";
import { ThemeContext, themeFromEnv } from "./theme.ts";
import type { DashboardDeps } from "./types.ts";
import { gc } from "../runtime/process.ts";
import { guardMemory } from "./memory-guard.ts";
import { alertBytes, desktopEscapes } from "./alert.ts";
import type { AttentionItem } from "./state/attention.ts";
import type { NotifyConfig } from "../protocol/user-config.ts";
import { readUserConfig } from "../user-config.ts";

const RSS_BUDGET_BYTES = 140 * 1024 * 1024;
const MEMORY_CHECK_MS = 2_000;

export interface RunOptions {
  client: TroupeClient;
  workspace: Workspace;
  /** The environment agents spawned from the dashboard get. */
  env: Record<string, string>;
}

function shortPath(p: string): string {
  const home = process.env.HOME;
  return home && p.startsWith(home) ? `~${p.slice(home.length)}` : p;
}

/** Rings once and, when the user's config asks, writes desktop notifications (read afresh: an edit applies at once). */
function alertPerson(items: AttentionItem[]): void {
  if (!process.stdout.isTTY) return; // escapes are for a terminal, never for a pipe or a file
  let desktop: NotifyConfig["desktop"];
  try {
    desktop = readUserConfig().notify?.desktop;
  } catch {
    desktop = undefined; // a broken config is reported where it is used for more (the daemon's log); the bell still rings
  }
  const bytes = alertBytes(items, { bell: process.env.TROUPE_BELL !== "0", desktop: desktopEscapes(desktop), tmux: Boolean(process.env.TMUX) });
  if (bytes) process.stdout.write(bytes);
}

/** Mounts the dashboard full screen until the person quits; returns the exit code. */
export async function runDashboard({ client, workspace, env }: RunOptions): Promise<number> {
  const feed = new Feed(client, parserFor, { onAttention: alertPerson });
  const deps: DashboardDeps = {
    client,
    workspace: shortPath(workspace.root),
    parserFor,
    listProviders,
    loadDiff: (agent) => loadDiff(agent, workspace.root),
    runs: workRuns(client, env),
    editText: editInEditor,
    bell: () => undefined,
    env,
  };
  feed.start();

  // Whatever happens, the terminal comes back: Ink restores on unmount and on signals; this covers a crash.
  let instance: ReturnType<typeof render> | null = null;
  const crash = (err: unknown) => {
    try {
      instance?.unmount();
    } catch {
      // already torn down
    }
    restoreTerminal();
    process.stderr.write(`troupe: the dashboard crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);

  instance = render(
    <ThemeContext.Provider value={themeFromEnv()}>
      <App deps={deps} feed={feed} />
    </ThemeContext.Provider>,
    // interactive: Ink treats any CI=true environment as non-interactive and draws nothing
    // until exit; the dashboard only runs on a terminal (checked before), so it always is.
    // maxFps 60: streaming output already reaches Ink at most 30 times a second (the feed batches
    // it); the higher cap only lets a keypress draw without queueing behind a streaming frame.
    { alternateScreen: true, exitOnCtrlC: false, patchConsole: true, maxFps: 60, incrementalRendering: true, interactive: true },
  );
  // at one ~20 ms pause every few seconds at most, while output streams
  const stopMemoryGuard = guardMemory(feed.output.publisher, {
    budgetBytes: RSS_BUDGET_BYTES,
    everyMs: MEMORY_CHECK_MS,
    rss: () => process.memoryUsage.rss(),
    gc,
  });
  // Asking each agent CLI for its version takes seconds (several are Node programs): do it
  // once the first frame is up, so the new-agent dialog opens with the answer ready.
  const prefetch = setTimeout(() => void listProviders().catch(() => {}), 300);
  prefetch.unref();
  let code = 0;
  try {
    await instance.waitUntilExit();
  } catch (err) {
    restoreTerminal();
    process.stderr.write(`troupe: the dashboard stopped: ${err instanceof Error ? err.message : String(err)}\n`);
    code = 1;
  } finally {
    clearTimeout(prefetch);
    stopMemoryGuard();
    feed.stop();
    process.off("uncaughtException", crash);
    process.off("unhandledRejection", crash);
  }
  process.stdout.write(`${closingNote(Object.values(feed.getView().entities.agents))}\n`);
  return code;
}
