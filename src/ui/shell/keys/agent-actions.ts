import type { Binding } from "../../kit/keys/binding.ts";
import { help, quit } from "../../kit/keys/helpers.ts";
import { agentKeys, filterKey } from "../../agents/agent-bindings.ts";
import { agentDiff } from "../../diff/diff-bindings.ts";
import { flowsView } from "../../flows/flow-bindings.ts";
import { toggleRaw } from "../../output/output-bindings.ts";
import { phasesView } from "../../phases/phase-bindings.ts";
import { answerKey } from "./answer.ts";

/** What the list and the output pane both offer on the selected agent: each feature's keys, in the help's order. */
export const agentActions: readonly Binding[] = [answerKey, ...agentKeys, agentDiff, toggleRaw, filterKey, phasesView, flowsView, help, quit];
