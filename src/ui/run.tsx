import { parserFor } from "../output/render.ts";
import type { NotifyConfig } from "../protocol/user-config.ts";
import { alertBytes, desktopEscapes } from "./kit/terminal/alert.ts";
import { DaemonMirror } from "./mirror/daemon-mirror.ts";
import type { Source } from "../client/sources.ts";
import type { RunOptions } from "./mirror/deps.ts";
import type { AttentionItem } from "./mirror/attention.ts";
import { firstState } from "./first-state.ts";

/**
 * Rings once and, when the user's config asks, writes desktop notifications. The config is read
 * afresh (an edit applies at once), its module loaded at the first alert: its schemas cost every
 * start a few milliseconds of the first frame otherwise.
 */
function alertPerson(items: AttentionItem[]): void {
  if (!process.stdout.isTTY) return; // escapes are for a terminal, never for a pipe or a file
  void import("../user-config.ts").then(({ readUserConfig }) => {
    let desktop: NotifyConfig["desktop"];
    try {
      desktop = readUserConfig().notify?.desktop;
    } catch {
      desktop = undefined; // a broken config is reported where it is used for more (the daemon's log); the bell still rings
    }
    const bytes = alertBytes(items, { bell: process.env.TROUPE_BELL !== "0", desktop: desktopEscapes(desktop), tmux: Boolean(process.env.TMUX) });
    if (bytes) process.stdout.write(bytes);
  }).catch(() => {}); // an alert is worth less than the dashboard: never an unhandled rejection
}

/**
 * Mounts the dashboard full screen until the person quits; returns the exit code. The mirror asks
 * the daemon for its snapshot first: the requests go out and the daemon answers while Ink, React
 * and the views load (the largest part of the start), so the first frame has the agents.
 */
export async function runDashboard({ client, workspace, env, sources }: RunOptions): Promise<number> {
  if (sources?.length) return runOverSources({ client, workspace, env }, sources);
  const mirror = new DaemonMirror(client, parserFor, { onAttention: alertPerson });
  mirror.start();
  const { mountDashboard } = await import("./mount.tsx");
  await firstState(mirror);
  return mountDashboard({ client, workspace, env, mirror });
}

/**
 * The dashboard over several sources (`troupe --remote NAME`, `-A`, several `--workspace`): one
 * list of all their agents, each action sent to the agent's own daemon, and the bell and desktop
 * notifications for every source's agents here, where the person is. A remote that answers late
 * does not hold the first frame: its header says it is connecting.
 */
async function runOverSources(opts: RunOptions, sources: readonly Source[]): Promise<number> {
  const { followSources } = await import("./sources/follow-sources.ts");
  const f = followSources(sources, parserFor, { onAttention: alertPerson });
  f.mirror.start();
  const { mountDashboard } = await import("./mount.tsx");
  await firstState(f.mirror);
  return mountDashboard({ ...opts, mirror: f.mirror, over: { client: f.client, clientAt: (label) => f.client.at(label), attach: f.attach, workspace: f.title } });
}
