import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TroupeError } from "../../../errors.ts";

/**
 * Runs $VISUAL or $EDITOR on `text` in a temp file and returns what was saved, as `troupe edit`
 * and `git commit` do. Synchronous on purpose: while the editor has the terminal nothing of
 * ours may read the keyboard or draw (Ink is suspended around this call).
 */
export async function editInEditor(text: string, name: string): Promise<string> {
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) throw new TroupeError("usage", "set $EDITOR (or $VISUAL) to the editor to open");
  const dir = mkdtempSync(join(tmpdir(), "troupe-edit-"));
  const file = join(dir, `${name.replace(/[^A-Za-z0-9_-]+/g, "-")}.md`);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    // through the shell, so that EDITOR may carry arguments ("code --wait")
    const r = spawnSync("sh", ["-c", `${editor} "$1"`, "troupe-edit", file], { stdio: "inherit" });
    if (r.error || r.status !== 0) throw new TroupeError("bad_request", `${editor} failed${r.status ? ` with exit ${r.status}` : r.error ? `: ${r.error.message}` : ""}`);
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
