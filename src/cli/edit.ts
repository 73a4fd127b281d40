import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { TroupeClient } from "../client/client.ts";
import { defineCommand, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { parseEditable, renderEditable, stripNotes, withNote, type Editable } from "../protocol/editable.ts";
import { stdout } from "./streams.ts";
import { changedLines } from "./work-format.ts";

/**
 * `troupe edit ID`: a proposed phase or task in $EDITOR, sent back when saved. A file the daemon
 * refuses (bad front matter, an unknown dependency, a cycle) opens again with the error on top,
 * as `kubectl edit` does; saving the same thing twice, or an empty file, gives up with the error.
 */
export const command = defineCommand(
  {
    synopsis: "troupe edit ID [--json]",
    intro: "  opens front matter (title, dependsOn) and the body; a refused save opens again with the error on top",
    flags: {},
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "edit takes one ID (a proposed phase or task)");
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) throw new TroupeError("usage", "set $EDITOR (or $VISUAL) to the editor to open");
  const { client } = await connect(values.workspace);
  const original = renderEditable(await editable(client, ref));
  const dir = mkdtempSync(join(tmpdir(), "troupe-edit-"));
  const file = join(dir, `${ref.replace(/[^A-Za-z0-9_-]+/g, "-")}.md`);
  try {
    let text = original;
    let last: string | null = null;
    for (;;) {
      writeFileSync(file, text, { mode: 0o600 });
      // through the shell, so that EDITOR may carry arguments ("code --wait")
      const r = spawnSync("sh", ["-c", `${editor} "$1"`, "troupe-edit", file], { stdio: "inherit" });
      if (r.error || r.status !== 0) throw new TroupeError("bad_request", `the editor (${editor}) failed${r.status ? ` with exit ${r.status}` : r.error ? `: ${r.error.message}` : ""}; nothing changed`);
      const saved = stripNotes(readFileSync(file, "utf8"));
      if (saved === original) {
        await stdout.write("no change\n");
        return 0;
      }
      if (!saved.trim()) throw new TroupeError("bad_request", "the file is empty; nothing changed");
      try {
        const items = await client.edit(ref, parseEditable(saved));
        if (values.json) await printJson(items);
        else await stdout.write(changedLines("edited", items));
        return 0;
      } catch (err) {
        if (!(err instanceof TroupeError) || err.code !== "bad_request") throw err;
        if (saved === last) throw new TroupeError("bad_request", `${err.message} (saved unchanged; nothing changed)`);
        last = saved;
        text = withNote(saved, err.message);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The item as it is edited: dependencies by slug, as the person wrote them in proposals. */
async function editable(client: TroupeClient, ref: string): Promise<Editable> {
  const item = await client.workItem(ref);
  const phase = item.phases[0];
  const task = item.tasks[0];
  if (!phase && !task) throw new TroupeError("bad_request", `${ref} is an initiative; edit a proposed phase or task`);
  const initiativeId = (phase ?? task)!.initiativeId;
  let siblings: { id: string; slug: string }[] = [];
  try {
    const all = await client.initiativeWork(initiativeId);
    siblings = phase ? all.phases : all.tasks;
  } catch (err) {
    throw new TroupeError("internal", `cannot read the initiative of ${ref}: ${errorMessage(err)}`, { cause: err });
  }
  const slugOf = (id: string) => siblings.find((s) => s.id === id)?.slug ?? id;
  if (phase) return { title: phase.title, dependsOn: phase.dependsOn.map(slugOf), body: phase.content };
  return { title: task!.title, dependsOn: task!.dependsOn.map(slugOf), files: task!.files, body: task!.description };
}
