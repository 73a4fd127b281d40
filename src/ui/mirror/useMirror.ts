import { useSyncExternalStore } from "react";
import type { Mirror, MirrorView } from "./daemon-mirror.ts";

/** The daemon's state, re-rendering at most as often as the mirror publishes. */
export function useMirror(mirror: Mirror): MirrorView {
  return useSyncExternalStore(mirror.subscribe, mirror.getView);
}
