import { watch } from "node:fs";
import type { WatchDir } from "../contract.ts";

/** fs.watch is inotify here, and Bun opens nothing it reports on (a FIFO in the folder is harmless). */
export const watchDir: WatchDir = (dir, onEvent, onError) => {
  const w = watch(dir, { persistent: false }, (event, name) => onEvent(event === "change" ? "change" : "rename", name));
  w.on("error", onError);
  return { close: () => w.close() };
};
