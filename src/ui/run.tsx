import type { TroupeClient } from "../client/client.ts";
import { parserFor } from "../output/render.ts";
import type { NotifyConfig } from "../protocol/user-config.ts";
import { readUserConfig } from "../user-config.ts";
import type { Workspace } from "../workspace.ts";
import { alertBytes, desktopEscapes } from "./alert.ts";
import { Feed } from "./feed.ts";
import type { AttentionItem } from "./state/attention.ts";

export interface RunOptions {
  client: TroupeClient;
  workspace: Workspace;
  /** The environment agents spawned from the dashboard get. */
  env: Record<string, string>;
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

/**
 * Mounts the dashboard full screen until the person quits; returns the exit code. The feed asks
 * the daemon for its snapshot first: the requests go out and the daemon answers while Ink, React
 * and the views load (the largest part of the start), so the first frame usually has the agents.
 */
export async function runDashboard({ client, workspace, env }: RunOptions): Promise<number> {
  const feed = new Feed(client, parserFor, { onAttention: alertPerson });
  feed.start();
  const { mountDashboard } = await import("./mount.tsx");
  return mountDashboard({ client, workspace, env, feed });
}
