import { basename } from "node:path";
import { remoteAddress } from "../../client/remote.ts";
import type { Source } from "../../client/sources.ts";
import { shortPath } from "../kit/short-path.ts";

/** A short name per source, unique among them: a remote's name, a workspace's folder name (`api`, `api-2`). */
export function sourceLabels(sources: readonly Source[]): string[] {
  const taken = new Set(sources.filter((s) => s.kind === "remote").map((s) => (s.kind === "remote" ? s.name : "")));
  return sources.map((s) => {
    if (s.kind === "remote") return s.name;
    const base = basename(s.workspace).replace(/@/g, "_") || "workspace";
    let label = base;
    for (let n = 2; taken.has(label); n++) label = `${base}-${n}`;
    taken.add(label);
    return label;
  });
}

/** The header over a source's agents: the folder for a workspace here (no host), `NAME · user@host:/path` for a remote. */
export function sourceTitle(s: Source): string {
  return s.kind === "remote" ? `${s.name} · ${remoteAddress(s.remote)}` : shortPath(s.workspace);
}
