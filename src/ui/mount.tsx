import { render } from "ink";
import { parserFor } from "../output/render.ts";
import { App } from "./shell/app.tsx";
import { closingNote } from "./closing-note.ts";
import { editInEditor } from "./kit/terminal/editor.ts";
import { workRuns } from "./phases/work-runs.ts";
import { runAttached } from "../client/attach.ts";
import type { Mirror } from "./mirror/daemon-mirror.ts";
import type { RunOptions } from "./mirror/deps.ts";
import { listProviders } from "./agents/dialogs/provider-choices.ts";
import { homeOnAlternateScreen, restoreTerminal } from "./kit/terminal/terminal.ts";
import { ThemeContext, themeFromEnv } from "./kit/theme.ts";
import type { DashboardDeps } from "./mirror/deps.ts";
import type { EndpointMethods } from "../client/client.ts";
import { gc, gcYoung, shrink } from "../runtime/process.ts";
import { guardMemory, settleMemory } from "./memory-guard.ts";
import { shortPath } from "./kit/short-path.ts";

// The dashboard after a full collection, 100 agents, one streaming: 81-95 MB; this budget
// collects before the garbage of a stream's frames lifts it much above that.
const RSS_BUDGET_BYTES = 100 * 1024 * 1024;
const MEMORY_CHECK_MS = 2_000;
const SETTLE_MS = 250;


/** What a dashboard over several sources uses instead (`follow-sources.ts`). */
export type SourcesDeps = Pick<DashboardDeps, "clientAt" | "attach" | "workspace"> & { client: EndpointMethods };

/** Mounts the dashboard over a started mirror, full screen until the person quits; returns the exit code. */
export async function mountDashboard({ client, workspace, env, mirror, over }: RunOptions & { mirror: Mirror; over?: SourcesDeps }): Promise<number> {
  const api: EndpointMethods = over?.client ?? client;
  const deps: DashboardDeps = {
    client,
    workspace: workspace ? shortPath(workspace.root) : "",
    parserFor,
    listProviders,
    // computed by the agent's own daemon
    loadDiff: (agent) => api.agentDiff(agent.id),
    runs: workRuns(api, env),
    editText: editInEditor,
    attach: (ref) => runAttached(client, ref),
    env,
    // several sources: their routing client, `t` where the agent is, their labels as the header's name
    ...over,
  };

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

  const unhome = homeOnAlternateScreen(process.stdout);
  instance = render(
    <ThemeContext.Provider value={themeFromEnv()}>
      <App deps={deps} mirror={mirror} />
    </ThemeContext.Provider>,
    // interactive: Ink treats any CI=true environment as non-interactive and draws nothing
    // until exit; the dashboard only runs on a terminal (checked before), so it always is.
    // maxFps 60: streaming output already reaches Ink at most 30 times a second (the mirror batches
    // it); the higher cap only lets a keypress draw without queueing behind a streaming frame.
    { alternateScreen: true, exitOnCtrlC: false, patchConsole: true, maxFps: 60, incrementalRendering: true, interactive: true },
  );
  // a young collection a frame, a full one (~15-20 ms) every few seconds at most, while output streams
  const stopMemoryGuard = guardMemory(mirror.output.publisher, {
    budgetBytes: RSS_BUDGET_BYTES,
    everyMs: MEMORY_CHECK_MS,
    rss: () => process.memoryUsage.rss(),
    gc,
    gcYoung,
  });
  // once after the first frame and once after the agent CLIs' versions came in
  const settler = settleMemory(mirror.output.publisher, shrink, SETTLE_MS);
  settler.settled();
  // Asking each agent CLI for its version takes seconds (several are Node programs): do it
  // once the first frame is up, so the new-agent dialog opens with the answer ready.
  const prefetch = setTimeout(() => void listProviders().then(settler.settled, () => {}), 300);
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
    unhome();
    settler.stop();
    stopMemoryGuard();
    mirror.stop();
    process.off("uncaughtException", crash);
    process.off("unhandledRejection", crash);
  }
  process.stdout.write(`${closingNote(Object.values(mirror.getView().entities.agents))}\n`);
  return code;
}
