import type { AgentRecord, Store } from "../store/index.ts";
import { toAgent } from "../store/agents.ts";
import { toInitiative } from "../store/initiatives.ts";
import { TroupeError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { PUBLISH_ENDPOINTS } from "../protocol/api/publish.ts";
import type { Publishable, Publisher } from "../publish/publisher.ts";
import type { HandlersOf } from "./services.ts";

interface PublishApiDeps {
  store: Store;
  bus: EventBus;
  publisher: Publisher;
  /** An agent's record by id or name (agent_not_found otherwise). */
  findAgent(ref: string): AgentRecord;
  /** An initiative's id by id or slug (not_found otherwise). */
  initiativeId(ref: string): string;
}

/** Pushes and pull requests of agents' and initiatives' branches (the guard let the person through). */
export function publishApi(d: PublishApiDeps): HandlersOf<typeof PUBLISH_ENDPOINTS> {
  return {
    push: (_caller, { ref, ...ask }) => d.publisher.push(agentBranch(d, ref), ask),
    pullRequest: (_caller, { ref, ...ask }) => d.publisher.pullRequest(agentBranch(d, ref), ask),
    pushInitiative: (_caller, { ref, ...ask }) => d.publisher.push(initiativeBranch(d, ref), ask),
    initiativePullRequest: (_caller, { ref, ...ask }) => d.publisher.pullRequest(initiativeBranch(d, ref), ask),
  };
}

function agentBranch(d: PublishApiDeps, ref: string): Publishable {
  const rec = d.findAgent(ref);
  if (!rec.branch) throw new TroupeError("invalid_state", `${rec.name} has no branch of its own (it ran without a worktree): nothing to push`);
  const task = rec.taskId ? d.store.tasks.get(rec.taskId) : null;
  return {
    label: rec.name,
    branch: rec.branch,
    baseRef: rec.baseRef ?? "HEAD",
    source: { by: `agent ${rec.name} (${rec.provider})`, title: task?.title ?? null, description: task?.description ?? rec.prompt, result: rec.result },
    // removed meanwhile (the push and the pull request took their time): the pull request is still the reply
    record: (url) => {
      if (d.store.agents.get(rec.id)) d.bus.publish({ type: "agent:updated", agent: toAgent(d.store.agents.update(rec.id, { prUrl: url })) });
    },
  };
}

function initiativeBranch(d: PublishApiDeps, ref: string): Publishable {
  const init = d.store.initiatives.get(d.initiativeId(ref))!;
  const done = d.store.tasks.listByInitiative(init.id).filter((t) => t.status === "completed");
  return {
    label: `initiative ${init.slug}`,
    branch: init.branch,
    baseRef: init.baseRef,
    source: {
      by: `initiative ${init.slug}`,
      title: init.name,
      description: init.goal,
      result: done.length ? done.map((t) => `- ${t.title}${t.summary ? `: ${t.summary}` : ""}`).join("\n") : null,
    },
    record: (url) => {
      if (d.store.initiatives.get(init.id)) d.bus.publish({ type: "initiative:updated", initiative: toInitiative(d.store.initiatives.update(init.id, { prUrl: url })) });
    },
  };
}
