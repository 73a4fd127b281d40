import type { Dispatcher } from "../work/dispatch.ts";
import type { WorkService } from "../work/service.ts";
import type { Guard } from "./guard.ts";
import type { WorkApi } from "./services.ts";

/** The work service behind the policy: reading is anyone's, every decision the person's. */
export function workApi(work: WorkService, dispatcher: Dispatcher, guard: Guard): WorkApi {
  return {
    createInitiative(caller, req) {
      guard(caller, "initiatives.create");
      return work.createInitiative(req);
    },
    listInitiatives(caller) {
      guard(caller, "work.read");
      return work.listInitiatives();
    },
    initiative(caller, ref) {
      guard(caller, "work.read");
      return work.initiative(ref);
    },
    archive(caller, ref) {
      guard(caller, "initiatives.archive");
      return work.archive(ref);
    },
    setBudget(caller, ref, budgetUsd) {
      guard(caller, "initiatives.budget");
      return work.setBudget(ref, budgetUsd);
    },
    tree(caller, ref) {
      guard(caller, "work.read");
      return work.tree(ref);
    },
    items(caller, ref) {
      guard(caller, "work.read");
      return work.items(ref);
    },
    item(caller, ref) {
      guard(caller, "work.read");
      return work.item(ref);
    },
    diff(caller, ref) {
      guard(caller, "work.read");
      return work.diff(ref);
    },
    approve(caller, req) {
      guard(caller, "work.approve");
      return work.approve(req);
    },
    reject(caller, ref, req) {
      guard(caller, "work.reject");
      return work.reject(ref, req);
    },
    edit(caller, ref, req) {
      guard(caller, "work.edit");
      return work.edit(ref, req);
    },
    retry(caller, ref) {
      guard(caller, "work.retry");
      return work.retry(ref);
    },
    dispatch(caller, ref, req) {
      guard(caller, "work.dispatch");
      return dispatcher.dispatch(ref, req);
    },
    stopDispatch(caller, ref) {
      guard(caller, "work.dispatch");
      return dispatcher.stop(ref);
    },
  };
}
