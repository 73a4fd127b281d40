import { z } from "zod";

/**
 * The front matter of the files a mode agent writes in `.troupe/output/` (the body below it is
 * the content). Strict: a misspelt key (`depends_on`) would otherwise drop dependencies silently.
 */
const Title = z.string().trim().min(1, "must not be empty").max(200);

/** A list of slugs (or existing ids); `dependsOn:` left empty reads as none. */
const DependsOn = z
  .array(z.string().trim().min(1, "must not be empty"))
  .nullable()
  .default([])
  .transform((xs) => xs ?? []);

/** `phases/<slug>.md` (plan). */
export const ProposalFrontMatterSchema = z.object({ title: Title, dependsOn: DependsOn }).strict();

/** A glob of the files a task owns, relative to the repository root: no leading `/`, no `..`, `./` dropped. */
const OwnedGlob = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(500)
  .transform((g) => g.replace(/^(\.\/)+/, ""))
  .refine((g) => !g.startsWith("/") && !g.split("/").includes("..") && !g.includes("\0"), "must be relative to the repository root, without '..'");

const OwnedGlobs = z.array(OwnedGlob).max(100, "at most 100 globs");

/**
 * `files:` of a task (work/file-ownership.ts): the globs of the files it owns; two tasks whose
 * files could meet never run at once. Absent or null: no list (it owns what its phase's other
 * tasks do not list); `[]`: it owns none.
 */
export const OwnedFilesSchema = OwnedGlobs.nullable().default(null);

/** `files:` as `troupe edit` reads it: absent leaves the task's as they are, null drops its list. */
export const EditedFilesSchema = OwnedGlobs.nullable().optional();

/** `tasks/<slug>.md` (detail). */
export const TaskFrontMatterSchema = ProposalFrontMatterSchema.extend({ files: OwnedFilesSchema }).strict();

/** `decisions/<slug>.md` (discuss): what was decided, and about what. */
export const DecisionFrontMatterSchema = z.object({ title: Title }).strict();

/** `initiative.md` (refine): the front matter is optional; the input file's keys may stay, and are ignored. */
export const RevisedGoalFrontMatterSchema = z.object({ id: z.string().optional(), title: z.string().optional(), dependsOn: DependsOn.optional() }).strict();

/** Read-only input files (`.troupe/input/*.md`, `context/**`): what the agent is told, as front matter. */
export interface InputFrontMatter {
  id: string;
  title: string;
  /** Slugs of the phases (or tasks of the same phase) it depends on. */
  dependsOn: string[];
  slug?: string;
  status?: string;
}

/** `.troupe/input/manifest.json` of a mode run (`files`: the input files present, relative to it). */
export const ModeManifestSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  mode: z.string(),
  initiativeId: z.string().optional(),
  phaseId: z.string().optional(),
  taskId: z.string().optional(),
  files: z.array(z.string()),
});

/** A decision a discuss agent recorded (`decisions/<slug>.md`), kept with its initiative. */
export const DecisionSchema = z.object({ slug: z.string(), title: z.string(), body: z.string() });
export type Decision = z.infer<typeof DecisionSchema>;
export const DecisionsResponseSchema = z.object({ decisions: z.array(DecisionSchema) });
