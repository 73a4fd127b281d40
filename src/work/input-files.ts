import { stringify } from "yaml";
import type { InputFrontMatter } from "../protocol/proposals.ts";
import type { AgentMode, Initiative, Phase, Task } from "../protocol/work.ts";
import type { InputFile } from "../agents/files/input-folder.ts";
import type { Decision } from "./proposals.ts";

/**
 * What a mode agent finds in `.troupe/input/` besides prompt.md and manifest.json: the initiative
 * (its goal), the phase and task it works on, and read-only context (the other phases, the
 * completed tasks of its phase with their summaries, the decisions of earlier discussions). Every
 * file is front matter (`id`, `title`, `dependsOn` as slugs, since an agent's output names slugs)
 * and a markdown body. Pure: the agent runtime writes them, before the agent's first session.
 */
export interface ModeInput {
  mode: AgentMode;
  initiative: Initiative;
  /** detail, execute */
  phase?: Phase;
  /** execute */
  task?: Task;
  /** Every phase of the initiative. */
  phases: Phase[];
  /** Every task of `phase` (detail, execute). */
  tasks: Task[];
  decisions: Decision[];
}

export function withFrontMatter(fm: InputFrontMatter | Record<string, unknown>, body: string): string {
  return `---\n${stringify(fm, { lineWidth: 0 }).trimEnd()}\n---\n\n${body.trim()}\n`;
}

export function modeInputFiles(m: ModeInput): InputFile[] {
  const phaseSlug = slugsById(m.phases);
  const taskSlug = slugsById(m.tasks);
  const files: InputFile[] = [
    { path: "initiative.md", content: withFrontMatter({ id: m.initiative.id, title: m.initiative.name, dependsOn: [], slug: m.initiative.slug, branch: m.initiative.branch }, m.initiative.goal) },
  ];
  if (m.phase) files.push({ path: "phase.md", content: phaseFile(m.phase, phaseSlug) });
  if (m.task) files.push({ path: "task.md", content: taskFile(m.task, taskSlug) });
  for (const p of m.phases) {
    if (p.id === m.phase?.id || p.status === "rejected") continue;
    files.push({ path: `context/phases/${p.slug}.md`, content: phaseFile(p, phaseSlug) });
  }
  for (const t of m.tasks) {
    if (t.id === m.task?.id || t.status !== "completed") continue;
    files.push({ path: `context/tasks/${t.slug}.md`, content: taskFile(t, taskSlug) });
  }
  for (const d of m.decisions) files.push({ path: `context/decisions/${d.slug}.md`, content: withFrontMatter({ title: d.title }, d.body) });
  return files;
}

function slugsById(xs: { id: string; slug: string }[]): (ids: string[]) => string[] {
  const byId = new Map(xs.map((x) => [x.id, x.slug]));
  return (ids) => ids.map((id) => byId.get(id) ?? id);
}

function phaseFile(p: Phase, slugs: (ids: string[]) => string[]): string {
  return withFrontMatter({ id: p.id, title: p.title, dependsOn: slugs(p.dependsOn), slug: p.slug, status: p.status }, p.content);
}

function taskFile(t: Task, slugs: (ids: string[]) => string[]): string {
  const fm: InputFrontMatter & { branch?: string; files?: string[] } = { id: t.id, title: t.title, dependsOn: slugs(t.dependsOn), slug: t.slug, status: t.status };
  if (t.branch) fm.branch = t.branch;
  // what it owns: another task under way may hold the files it does not list
  if (t.files) fm.files = t.files;
  const summary = t.summary ? `\n\n## What its agent reported\n\n${t.summary}` : "";
  return withFrontMatter(fm, `${t.description}${summary}`);
}
