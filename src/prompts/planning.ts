import { block } from "./block.ts";
import { outputDir, shellWord, type ModePromptContext } from "./context.ts";

/** What makes a plan's phases and a detail's tasks workable by the agents that take them next. */

const unit = (c: ModePromptContext) => (c.mode === "plan" ? "phase" : "task");

export const specificity = block("specificity", (c) =>
  c.mode === "plan"
    ? `## The specificity test

Before you write a phase, ask: could a detail agent break it into tasks without asking anyone? If it would have to guess what to build, where, or how to tell it is done, the body is not finished.
- Too vague: "Authentication." (Which kind? Stored where? What does it protect? Done when?)
- Specific: "Password login: \`POST /v1/login\` checks an argon2 hash from a new \`users\` table (src/store/) and sets an httpOnly session cookie; every other /v1/ route answers 401 without one. Done when tests/auth/login.test.ts passes for a good password, a bad one and an expired cookie."`
    : `## The specificity test

Before you write a task, ask: could an execute agent do it without asking anyone? Name the files, the functions with their signatures, the behaviour on bad input, and the test cases.
- Too vague: "Add the sessions API."
- Specific: "Add \`GET /v1/sessions\` in src/daemon/routes/sessions.ts: \`{sessions: Session[]}\` from \`SessionStore.list()\`, newest first; \`?limit=N\` from 1 to 500, anything else 400 \`bad_request\`. Test in tests/daemon/sessions.test.ts: an empty store, the order, a limit, a bad limit."`,
);

export const fileOwnership = block("file-ownership", (c) => {
  const u = unit(c);
  const rest =
    c.mode === "plan"
      ? "make one depend on the other, or move the shared change into a phase both depend on."
      : "make one depend on the other. Shared files (a route table, an index, a list of migrations) are where this usually breaks: give each to one task.";
  return `## File ownership

Each ${u} names the ${c.mode === "plan" ? "modules and files" : "files"} it changes. Two ${u}s that can run at the same time (neither depends on the other, directly or through others) never change the same file: if they must, ${rest}`;
});

export const checkpoints = block(
  "checkpoints",
  (c) => `## Checkpoints for the person

Where a task needs the person once its work is done (to look at a screen, try a flow, choose between two versions that now run, or do what only they can: create an account, hand over a secret), end its body with that checkpoint: what to check or choose, and what to expect. Its execute agent stops there and asks (\`${shellWord(c.troupe)} ask "<question>" --user\`) before going on. Never leave the person a command an agent could run; a choice you can put to them now, ask now.`,
);

/** The file format of plan and detail outputs, with an example. */
export function proposalFormat(c: ModePromptContext, example: string): string {
  const u = unit(c);
  const kind = `${u}s`;
  const keys =
    u === "task"
      ? "exactly `title`, `dependsOn` (a list of slugs of files you write now, or of existing tasks; `[]` for none) and `files` (the files the task creates or changes, as paths or globs relative to the repository root: tasks whose files meet never run at the same time)"
      : `exactly \`title\` and \`dependsOn\` (a list of slugs of files you write now, or of existing ${kind}; \`[]\` for none)`;
  return `## Writing the ${kind}

Write one file per ${u}: \`${outputDir(c)}/${kind}/<slug>.md\`, where \`<slug>\` is lowercase letters, digits and dashes (it names the ${u} in \`dependsOn\` and in refs). Each file is YAML front matter with ${keys}, then the body in markdown:

\`\`\`markdown
${example}
\`\`\`

Another key in the front matter, a missing title, an empty body, a dependency on a slug that does not exist or a cycle fails the whole run, and nothing is imported. Do not commit these files.`;
}
