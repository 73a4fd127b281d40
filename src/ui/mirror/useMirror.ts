import { useSyncExternalStore } from "react";
import type { DaemonMirror, MirrorView } from "./daemon-mirror.ts";

/** The daemon's state, re-rendering at most as often as the mirror publishes. */
export function useMirror(mirror: DaemonMirror): MirrorView {
  return useSyncExternalStore(mirror.subscribe, mirror.getView);
}
