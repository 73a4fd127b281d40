import type { NewAgentModal } from "../modals.ts";
import { Dialog, dialogInner } from "../../../kit/components/Dialog.tsx";
import { FormView } from "../../../kit/components/FormView.tsx";

export interface NewAgentDialogProps {
  modal: NewAgentModal;
  width: number;
  height: number;
}

export function NewAgentDialog({ modal, width, height }: NewAgentDialogProps) {
  const inner = dialogInner(width, height);
  const footer = modal.busy ? "starting…" : "enter start · tab/shift+tab move · ctrl+j new line · esc cancel";
  return (
    <Dialog title={modal.source ? `New agent in ${modal.source}` : "New agent"} width={width} height={height} footer={footer}>
      <FormView form={modal.form} width={inner.width} fieldRows={Math.max(1, Math.min(5, inner.height - 12))} height={inner.height} />
    </Dialog>
  );
}
