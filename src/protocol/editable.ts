import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
import { TroupeError, errorMessage } from "../errors.ts";
import type { EditRequest } from "./api-work.ts";
import { describeIssue } from "./issue.ts";
import { EditedFilesSchema } from "./proposals.ts";

/**
 * A proposed phase or task as `troupe edit` and the dashboard's `e` show it in $EDITOR: YAML front matter (title,
 * dependsOn as slugs, and a task's files) and the body, as proposal files are written. Lines starting with `#`
 * before the front matter are troupe's notes (the last error) and are ignored.
 */
export interface Editable {
  title: string;
  dependsOn: string[];
  /** A task's: the globs of the files it owns, null for no list; a phase has none (absent). */
  files?: string[] | null;
  body: string;
}

const FrontMatterSchema = z.strictObject({
  title: z.string().trim().min(1, "the title is empty"),
  dependsOn: z.array(z.string().min(1)).default([]),
  files: EditedFilesSchema,
});

export function renderEditable(e: Editable): string {
  const files = e.files === undefined ? {} : { files: e.files };
  return `---\n${stringifyYaml({ title: e.title, dependsOn: e.dependsOn, ...files })}---\n${e.body}`;
}

/** Without troupe's notes at the top. */
export function stripNotes(text: string): string {
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith("#")) i++;
  return lines.slice(i).join("\n");
}

export function withNote(text: string, error: string): string {
  return `# ${error.replace(/\n/g, " ")}\n# Fix it and save; save it unchanged to give up.\n${text}`;
}

/** The edit request a saved file asks for; a malformed file is a `bad_request` that says where. */
export function parseEditable(text: string): EditRequest {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!m) throw new TroupeError("bad_request", "the file must start with front matter between two '---' lines");
  let data: unknown;
  try {
    data = parseYaml(m[1]!);
  } catch (err) {
    throw new TroupeError("bad_request", `the front matter is not YAML: ${errorMessage(err).split("\n")[0]}`);
  }
  const fm = FrontMatterSchema.safeParse(data ?? {});
  if (!fm.success) throw new TroupeError("bad_request", describeIssue(fm.error, "front matter"));
  return { title: fm.data.title, dependsOn: fm.data.dependsOn, ...(fm.data.files === undefined ? {} : { files: fm.data.files }), body: m[2]! };
}
