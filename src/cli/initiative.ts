import { readFileSync } from "node:fs";
import { TroupeError, errorMessage } from "../errors.ts";
import { ReviewPolicySchema } from "../protocol/work.ts";
import { PERMISSION_MODE_LIST, isPermissionMode } from "../protocol/permission-modes.ts";
import { defineCommand, printJson } from "./command.ts";
import { clientEnv, connect } from "./context.ts";
import { stdout } from "./streams.ts";
import { PR_FLAGS, printPull, pullAsk } from "./pr.ts";
import { printPush } from "./push.ts";
import { decisionsText, initiativeRows, initiativeText, spentText } from "./work-format.ts";

export const command = defineCommand({
  name: "initiative",
  intro: "  INITIATIVE is an id or a slug; its branch is troupe-initiative/<slug>, made from --base (default: the current branch)",
  flags: {
    review: { type: "string", help: "what the person approves: phases (default; tasks are approved automatically), tasks (both) or none" },
    budget: { type: "string", help: "at most this many USD over all its agents: once spent, dispatch starts no new agent" },
    permissions: { type: "string", help: "the permission policy its agents inherit (see troupe spawn), with --allow and --deny" },
    allow: { type: "string", multiple: true, help: null },
    deny: { type: "string", multiple: true, help: null },
    goal: { type: "string", help: null },
    "goal-file": { type: "string", help: null },
    ...PR_FLAGS,
    // new's base (what it starts from) and pr's (what it merges into): the synopsis says which
    base: { type: "string", help: null },
  },
  forms: {
    new: {
      usage: "NAME (--goal TEXT | --goal-file F) [--base REF] [--review phases|tasks|none] [--budget USD]\n[--permissions MODE] [--allow RULE ...] [--deny RULE ...] [--json]",
      flags: ["goal", "goal-file", "base", "review", "budget", "permissions", "allow", "deny"],
      run: create,
    },
    ls: { usage: "[--json]", flags: [], run: list },
    show: { usage: "INITIATIVE [--json]   the goal, what it spent and the decisions discuss agents took", flags: [], run: (args) => one("show", args) },
    budget: { usage: "INITIATIVE USD [--json]   a new limit: dispatch goes on under it", flags: [], run: budget },
    archive: { usage: "INITIATIVE [--json]", flags: [], run: (args) => one("archive", args) },
    diff: { usage: "INITIATIVE", flags: [], run: (args) => one("diff", args) },
    push: { usage: "INITIATIVE [--to REMOTE] [--json]   its branch to the git remote, with your git", flags: ["to"], run: push },
    pr: { usage: "INITIATIVE [--to REMOTE] [--base BRANCH] [--draft] [--title T] [--body-file F] [--json]   pushed, then its pull request (see troupe pr)", flags: ["to", "base", "draft", "title", "body-file"], run: pr },
  },
});

async function create(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("new", args);
  const name = positionals.join(" ").trim();
  if (!name) throw new TroupeError("usage", "initiative new takes a NAME");
  if ((values.goal === undefined) === (values["goal-file"] === undefined)) throw new TroupeError("usage", "give the goal as --goal TEXT or --goal-file F");
  let goal = values.goal;
  if (values["goal-file"] !== undefined) {
    try {
      goal = readFileSync(values["goal-file"], "utf8");
    } catch (err) {
      throw new TroupeError("usage", `cannot read --goal-file ${values["goal-file"]}: ${errorMessage(err)}`);
    }
  }
  if (!goal?.trim()) throw new TroupeError("usage", "the goal is empty");
  const review = ReviewPolicySchema.safeParse(values.review ?? "phases");
  if (!review.success) throw new TroupeError("usage", `--review takes phases, tasks or none, not '${values.review}'`);
  const budgetUsd = values.budget === undefined ? undefined : usd(values.budget, "--budget");
  const { client } = await connect(values.workspace);
  const mode = values.permissions;
  if (mode && !isPermissionMode(mode)) throw new TroupeError("usage", `--permissions takes ${PERMISSION_MODE_LIST}`);
  const policy = { ...(mode && { mode }), ...(values.allow?.length && { allow: values.allow }), ...(values.deny?.length && { deny: values.deny }) };
  const permissions = Object.keys(policy).length ? policy : undefined;
  const init = await client.createInitiative({ name, goal, baseRef: values.base, review: review.data, budgetUsd, permissions });
  if (values.json) await printJson(init);
  else await stdout.write(`initiative ${init.slug} (${init.id}) on ${init.branch} from ${init.baseRef}\n`);
  return 0;
}

/** An amount in US dollars, positive. */
function usd(text: string, what: string): number {
  const n = Number(text);
  if (!text.trim() || !(n > 0) || !Number.isFinite(n)) throw new TroupeError("usage", `${what} takes an amount in USD, such as 2.50, not '${text}'`);
  return n;
}

async function budget(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("budget", args);
  const [ref, amount, ...extra] = positionals;
  if (!ref || amount === undefined || extra.length) throw new TroupeError("usage", "initiative budget takes an INITIATIVE and an amount in USD");
  const budgetUsd = usd(amount, "initiative budget");
  const { client } = await connect(values.workspace);
  const init = await client.setInitiativeBudget(ref, { budgetUsd });
  if (values.json) await printJson(init);
  else await stdout.write(`initiative ${init.slug}: ${spentText(init)}\n`);
  return 0;
}

async function list(args: string[]): Promise<number> {
  const { values } = command.parseForm("ls", args, { positionals: false });
  const { client } = await connect(values.workspace);
  const all = await client.initiatives();
  if (values.json) await printJson(all);
  else if (all.length === 0) await stdout.write("no initiatives; start one with 'troupe initiative new NAME --goal TEXT'\n");
  else await stdout.write(initiativeRows(all));
  return 0;
}

async function one(sub: "show" | "archive" | "diff", args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm(sub, args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", `initiative ${sub} takes one INITIATIVE (id or slug)`);
  const { client } = await connect(values.workspace);
  if (sub === "diff") {
    const diff = await client.initiativeDiff(ref);
    if (values.json) await printJson({ diff });
    else await stdout.write(diff);
    return 0;
  }
  if (sub === "show") {
    const [init, taken] = await Promise.all([client.initiative(ref), client.decisions(ref)]);
    if (values.json) await printJson({ ...init, decisions: taken });
    else await stdout.write(`${initiativeText(init)}${decisionsText(taken)}`);
    return 0;
  }
  const init = await client.archiveInitiative(ref);
  if (values.json) await printJson(init);
  else await stdout.write(`initiative ${init.slug} archived (its branch ${init.branch} stays)\n`);
  return 0;
}

async function push(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("push", args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "initiative push takes one INITIATIVE (id or slug)");
  const { client } = await connect(values.workspace);
  await printPush(await client.pushInitiative(ref, { remote: values.to, env: clientEnv() }), values.json === true);
  return 0;
}

async function pr(args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm("pr", args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "initiative pr takes one INITIATIVE (id or slug)");
  const ask = pullAsk(values);
  const { client } = await connect(values.workspace);
  await printPull(await client.initiativePullRequest(ref, ask), values.json === true, `initiative ${ref}`);
  return 0;
}
