import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

const pushReply = reply.key(schema("publish", "PushResponseSchema"), "push");
const pullReply = reply.key(schema("publish", "PullRequestResponseSchema"), "pullRequest");

// the person's alone: a push and a pull request speak for the person, with the person's git
// credentials and GitHub account; an agent's work leaves the machine only when the person says so
/** Branches pushed to the repository's git remote, and their pull requests on GitHub. */
export const PUBLISH_ENDPOINTS = {
  push: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/push",
    summary: "The agent's branch pushed to a git remote of the repository (`origin` unless named), to the same name, never forced, with the caller's environment (its git credentials, ssh agent); no prompt, ended after 60 s of silence.",
    rule: "person",
    does: "push the branch of $",
    target: "agent",
    params: { ref: "an agent's id or name" },
    body: schema("publish", "PushRequestSchema"),
    callerEnv: true,
    reply: pushReply,
  }),
  pullRequest: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/pr",
    summary:
      "The agent's branch pushed, then its pull request opened against the branch it started from (else the remote's default branch): through gh where it is logged in to the remote's host, else GitHub's REST API (`github.apiUrl`, a token from GH_TOKEN or `github.token`). An open one is returned (`created: false`), never a second; its URL is kept on the agent (`prUrl`). Remote, repository, credentials and base are checked before the push; nothing is opened when the push fails.",
    rule: "person",
    does: "open a pull request for $",
    target: "agent",
    params: { ref: "an agent's id or name" },
    body: schema("publish", "PullRequestRequestSchema"),
    callerEnv: true,
    reply: pullReply,
  }),
  pushInitiative: endpoint({
    method: "POST",
    path: "/v1/initiatives/:ref/push",
    summary: "The initiative's branch pushed, as an agent's is.",
    rule: "person",
    does: "push an initiative's branch",
    params: { ref: "an initiative's id or slug" },
    body: schema("publish", "PushRequestSchema"),
    callerEnv: true,
    reply: pushReply,
  }),
  initiativePullRequest: endpoint({
    method: "POST",
    path: "/v1/initiatives/:ref/pr",
    summary: "The initiative's branch pushed and its pull request opened against its base, as an agent's is; its URL kept on the initiative (`prUrl`).",
    rule: "person",
    does: "open a pull request for an initiative",
    params: { ref: "an initiative's id or slug" },
    body: schema("publish", "PullRequestRequestSchema"),
    callerEnv: true,
    reply: pullReply,
  }),
} as const;
