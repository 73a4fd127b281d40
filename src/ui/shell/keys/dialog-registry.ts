import type { DialogModal } from "../ui-state.ts";
import { FLOW_DIALOGS } from "../../flows/flow-dialogs.tsx";
import { PERMISSION_DIALOGS } from "../../permissions/permission-dialogs.tsx";
import { PHASE_DIALOGS } from "../../phases/phase-dialogs.tsx";
import { REVIEW_DIALOGS } from "../../diff/review-dialogs.tsx";
import { AGENT_DIALOGS } from "../../agents/dialogs/agent-dialogs.tsx";
import type { DialogArea, DialogSpec, DialogsOf } from "../../kit/dialogs/dialog-spec.ts";

/**
 * Every dialog, gathered from the features' tables: the main view draws the open one from here,
 * the key context comes from here, and the field and confirm controllers send it from here. A
 * new dialog is a row in its feature's table (with its modal type there): nothing here changes.
 */
const DIALOGS: DialogsOf<DialogModal> = { ...AGENT_DIALOGS, ...PHASE_DIALOGS, ...FLOW_DIALOGS, ...PERMISSION_DIALOGS, ...REVIEW_DIALOGS };

/** The spec of the open dialog. */
export function dialogOf<M extends DialogModal>(modal: M): DialogSpec<M> {
  return DIALOGS[modal.kind as M["kind"]] as unknown as DialogSpec<M>;
}

export function renderDialog(modal: DialogModal, area: DialogArea) {
  return dialogOf(modal).render(modal, area);
}
