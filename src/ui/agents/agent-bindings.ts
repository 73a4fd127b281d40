import { isLive } from "../../protocol/status.ts";
import { ch } from "../kit/keys/key-spec.ts";
import { openMessage, openNewAgent, openPullRequest, openResume, openStop } from "./dialogs/agent-dialogs.tsx";
import type { Binding, KeyEnv } from "../kit/keys/binding.ts";
import { opensDialog } from "../kit/keys/helpers.ts";
import { attachBinding } from "./attach-binding.ts";

const noAgent = (env: KeyEnv) => (env.selected ? null : "no agent selected");

/**
 * The agents feature's keys on the selected agent; the shell puts them in the list's and the
 * output pane's tables with the other features' (`shell/keys/agent-actions.ts`).
 */
export const agentKeys: readonly Binding[] = [
  { command: "newAgent", keys: [ch("n")], help: "new agent", hint: "new", run: opensDialog(openNewAgent) },
  {
    command: "stop",
    keys: [ch("s")],
    help: "stop the agent (asks first)",
    hint: "stop",
    disabled: (env) => {
      const a = env.selected;
      if (!a) return "no agent selected";
      return isLive(a.status) ? null : `${a.name} is ${a.status}, not running`;
    },
    run: opensDialog((env) => {
      if (env.selected) openStop(env, env.selected);
    }),
  },
  {
    command: "resume",
    keys: [ch("r")],
    help: "resume the agent with a message",
    hint: "resume",
    disabled: noAgent,
    run: opensDialog((env) => {
      if (env.selected) openResume(env, env.selected);
    }),
  },
  {
    command: "message",
    keys: [ch("m")],
    help: "send the agent a message (a running Claude agent takes it in its run; others when they listen or next run)",
    hint: "message",
    disabled: noAgent,
    run: opensDialog((env) => {
      if (env.selected) openMessage(env, env.selected);
    }),
  },
  {
    command: "pullRequest",
    keys: [ch("P")],
    help: "push the agent's branch and open its pull request (asks first)",
    hint: "PR",
    disabled: (env) => {
      const a = env.selected;
      if (!a) return "no agent selected";
      return a.branch ? null : `${a.name} has no branch of its own`;
    },
    run: opensDialog((env) => {
      if (env.selected) openPullRequest(env, env.selected);
    }),
  },
  attachBinding,
];

export const filterKey: Binding = { command: "filter", keys: [ch("/")], help: "filter agents by status or text", hint: "filter", run: (env) => env.dispatch({ type: "filterStart" }) };
