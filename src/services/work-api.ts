import type { WORK_ENDPOINTS } from "../protocol/api/work.ts";
import type { Dispatcher } from "../work/dispatch.ts";
import type { WorkService } from "../work/service.ts";
import type { HandlersOf } from "./services.ts";

/** The work model's endpoints over the work service and the dispatcher (the guard has let the caller through). */
export function workApi(work: WorkService, dispatcher: Dispatcher, hostNames: () => string[]): HandlersOf<typeof WORK_ENDPOINTS> {
  return {
    initiatives: () => work.listInitiatives(),
    createInitiative: (_caller, req) => work.createInitiative(req),
    initiative: (_caller, { ref }) => work.initiative(ref),
    phaseTree: (_caller, { ref }) => work.tree(ref),
    initiativeWork: (_caller, { ref }) => work.items(ref),
    initiativeDiff: (_caller, { ref }) => work.diff(ref),
    archiveInitiative: (_caller, { ref }) => work.archive(ref),
    setInitiativeBudget: (_caller, { ref, budgetUsd }) => work.setBudget(ref, budgetUsd),
    dispatch: (_caller, { ref, ...req }) => dispatcher.dispatch(ref, req),
    stopDispatch: (_caller, { ref }) => dispatcher.stop(ref),
    approve: (_caller, req) => work.approve(req),
    workItem: (_caller, { ref }) => work.item(ref),
    edit: (_caller, { ref, ...req }) => work.edit(ref, req),
    reject: (_caller, { ref, ...req }) => work.reject(ref, req),
    pin: (_caller, { ref, host }) => work.pin(ref, host, hostNames()),
    retry: (_caller, { ref }) => work.retry(ref),
  };
}
