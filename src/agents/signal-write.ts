import { closeSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Signal } from "../protocol/signal.ts";
import { formatBytes } from "../guarded-fs.ts";
import { SIGNAL_FILE_MAX_BYTES } from "./signal-file.ts";

/**
 * The daemon writes an agent's signal file for it (`POST /v1/signal`). The folder around it is
 * the agent's to shape, so the daemon must not be the one that writes through a link the agent
 * planted: the file's folder must be where its path says below `trusted` (no symlinked
 * component), and the temp file is created new (O_EXCL: a link at its name is not followed).
 * The rename then replaces whatever sits at the path, a link included, never its target.
 */
export function writeSignalAs(path: string, trusted: string, signal: Signal): void {
  const text = `${JSON.stringify(signal)}\n`;
  // the reader refuses a bigger file whole: refuse it now, while the agent can still shorten it
  if (Buffer.byteLength(text) > SIGNAL_FILE_MAX_BYTES) {
    throw new TroupeError("payload_too_large", `the signal is larger than ${formatBytes(SIGNAL_FILE_MAX_BYTES)}; write long output to a file in your folder and name it in --result`);
  }
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const expected = join(realpathSync(trusted), relative(trusted, dir));
  const real = realpathSync(dir);
  if (real !== expected) throw new TroupeError("bad_request", `${dir} leads to ${real} through a link; remove the link and signal again`);
  const tmp = join(dir, `.signal.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new TroupeError("bad_request", `could not write ${path}: ${errorMessage(err)}`, { cause: err });
  }
}
