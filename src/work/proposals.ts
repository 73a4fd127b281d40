import { lstatSync, readdirSync, renameSync } from "node:fs";
import { join, relative } from "node:path";
import { fileError, splitFrontMatter } from "../front-matter.ts";
import type { z } from "zod";
import { TroupeError } from "../errors.ts";
import { makeDirGuarded, readGuarded } from "../guarded-fs.ts";
import { describeIssue } from "../protocol/issue.ts";
import { DecisionFrontMatterSchema, ProposalFrontMatterSchema, RevisedGoalFrontMatterSchema, TaskFrontMatterSchema, type Decision } from "../protocol/proposals.ts";

export type { Decision };
import { SlugSchema, type AgentMode } from "../protocol/work.ts";
import type { PhaseDraft, TaskDraft } from "./proposal-sink.ts";

/**
 * Reading what a mode agent wrote in `.troupe/output/` once it signalled done. Every file is the
 * agent's to shape, so it is read through readGuarded (regular files inside its folder, capped),
 * its front matter by a real YAML parser and then zod. One bad file refuses the whole output: a
 * plan is imported whole or not at all. Errors name the file (relative to the worktree) and why.
 */

/** Per file; a phase or task description is prose, not a codebase. */
export const MAX_PROPOSAL_BYTES = 256 * 1024;
/** Per folder: a plan of more phases than this is not a plan anyone reviews. */
const MAX_PROPOSAL_FILES = 200;

export type ModeOutputs =
  | { mode: "plan"; phases: PhaseDraft[] }
  | { mode: "detail"; tasks: TaskDraft[] }
  | { mode: "discuss"; decisions: Decision[] }
  /** null: the agent found nothing to change. */
  | { mode: "refine"; goal: string | null }
  | { mode: "execute" };

/** A file an agent wrote that cannot be imported: `file` relative to its worktree. */
const proposalError = fileError;

function frontMatter<S extends z.ZodType>(file: string, data: unknown, schema: S, keys: string): z.output<S> {
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw proposalError(file, `the front matter must be a mapping (${keys})`);
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw proposalError(file, `front matter ${describeIssue(parsed.error, "front matter")}`);
  return parsed.data;
}

function slugOf(file: string, name: string): string {
  const slug = name.slice(0, -".md".length);
  const ok = SlugSchema.safeParse(slug);
  if (!ok.success) throw proposalError(file, `'${slug}' is not a valid slug (${ok.error.issues[0]?.message}); name the file <slug>.md`);
  return slug;
}

/** A phase file: front matter `title`, `dependsOn`; the body is its content. */
export function parseProposal(file: string, name: string, text: string): PhaseDraft {
  return parseWith(file, name, text, ProposalFrontMatterSchema, "title, dependsOn").draft;
}

/** A task file: a phase file's front matter and the files it owns (`files`). */
export function parseTaskProposal(file: string, name: string, text: string): TaskDraft {
  const { draft, fm } = parseWith(file, name, text, TaskFrontMatterSchema, "title, dependsOn, files");
  return { ...draft, files: fm.files && [...new Set(fm.files)] };
}

function parseWith<S extends z.ZodType<{ title: string; dependsOn: string[] }>>(file: string, name: string, text: string, schema: S, keys: string): { draft: PhaseDraft; fm: z.output<S> } {
  const slug = slugOf(file, name);
  const { data, body } = splitFrontMatter(file, text);
  if (data === null) throw proposalError(file, "has no front matter: start it with ---, title: ..., dependsOn: [...], ---");
  const fm = frontMatter(file, data, schema, keys);
  if (!body) throw proposalError(file, "the body (the content, below the front matter) is empty");
  if (fm.dependsOn.includes(slug)) throw proposalError(file, `depends on itself ('${slug}')`);
  return { draft: { slug, title: fm.title, body, dependsOn: [...new Set(fm.dependsOn)] }, fm };
}

export function parseDecision(file: string, name: string, text: string): Decision {
  const slug = slugOf(file, name);
  const { data, body } = splitFrontMatter(file, text);
  if (data === null) throw proposalError(file, "has no front matter: start it with ---, title: ..., ---");
  const fm = frontMatter(file, data, DecisionFrontMatterSchema, "title");
  if (!body) throw proposalError(file, "the body (the decision, below the front matter) is empty");
  return { slug, title: fm.title, body };
}

/** The revised goal; front matter is optional (the input file's may stay). */
export function parseRevisedGoal(file: string, text: string): string {
  const { data, body } = splitFrontMatter(file, text);
  if (data !== null) frontMatter(file, data, RevisedGoalFrontMatterSchema, "id, title, dependsOn");
  if (!body) throw proposalError(file, "the revised goal is empty (write no file when nothing needs changing)");
  return body;
}

/** Reads the outputs of `mode` from a worktree; throws a `bad_request` naming the first bad file. */
export function readModeOutputs(mode: AgentMode, worktree: string): ModeOutputs {
  const root = join(worktree, ".troupe");
  const out = join(root, "output");
  switch (mode) {
    case "plan":
      return { mode, phases: readFolder(worktree, root, join(out, "phases"), parseProposal) };
    case "detail":
      return { mode, tasks: readFolder(worktree, root, join(out, "tasks"), parseTaskProposal) };
    case "discuss":
      return { mode, decisions: readFolder(worktree, root, join(out, "decisions"), parseDecision) };
    case "refine": {
      const path = join(out, "initiative.md");
      const text = readText(worktree, root, path);
      return { mode, goal: text === null ? null : parseRevisedGoal(relative(worktree, path), text) };
    }
    case "execute":
      return { mode };
  }
}

const OUTPUT_OF: Record<AgentMode, string | null> = { plan: "phases", detail: "tasks", discuss: "decisions", refine: "initiative.md", execute: null };

/**
 * Moves imported outputs to `.troupe/output/imported/<session>-<name>`, so a later session of the
 * same agent (a revision after a rejection) proposes only what it writes then. Outputs that failed
 * to import stay where they are, for the agent to fix on a resume.
 */
export function archiveModeOutputs(mode: AgentMode, worktree: string, session: number): void {
  const name = OUTPUT_OF[mode];
  if (!name) return;
  const out = join(worktree, ".troupe", "output");
  const from = join(out, name);
  // only a folder or file of its own is moved, never through a link the agent planted on the way (refused)
  let st;
  try {
    st = lstatSync(from);
  } catch {
    return;
  }
  if (!st.isDirectory() && !st.isFile()) return;
  makeDirGuarded(join(out, "imported"), worktree);
  renameSync(from, join(out, "imported", `${session}-${name}`));
}

function readText(worktree: string, root: string, path: string): string | null {
  const read = readGuarded(path, { root, maxBytes: MAX_PROPOSAL_BYTES, rootName: "the agent's folder" });
  if (read.kind === "missing") return null;
  if (read.kind === "refused") throw proposalError(relative(worktree, path), read.reason);
  return read.text;
}

/** Every `*.md` of a folder, in name order; a missing folder is an empty output. */
function readFolder<T>(worktree: string, root: string, dir: string, parse: (file: string, name: string, text: string) => T): T[] {
  const shown = relative(worktree, dir);
  let names: string[];
  try {
    const st = lstatSync(dir);
    // a link is refused too: the folder must be the agent's own (readGuarded checks each file again)
    if (!st.isDirectory()) throw proposalError(shown, "is not a folder");
    names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    if (err instanceof TroupeError) throw err;
    throw proposalError(shown, `cannot be listed: ${(err as Error).message}`);
  }
  if (names.length > MAX_PROPOSAL_FILES) throw proposalError(shown, `holds ${names.length} files; at most ${MAX_PROPOSAL_FILES}`);
  return names.map((name) => {
    const path = join(dir, name);
    const file = relative(worktree, path);
    const text = readText(worktree, root, path);
    if (text === null) throw proposalError(file, "vanished while it was read");
    return parse(file, name, text);
  });
}
