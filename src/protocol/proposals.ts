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

/** `phases/<slug>.md` (plan) and `tasks/<slug>.md` (detail). */
export const ProposalFrontMatterSchema = z.object({ title: Title, dependsOn: DependsOn }).strict();
export type ProposalFrontMatter = z.output<typeof ProposalFrontMatterSchema>;

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
