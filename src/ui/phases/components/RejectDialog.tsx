import type { RejectModal } from "../phases-ui.ts";
import { Dialog, dialogInner } from "../../kit/components/Dialog.tsx";
import { FormView } from "../../kit/components/FormView.tsx";

export interface RejectDialogProps {
  modal: RejectModal;
  width: number;
  height: number;
}

export function RejectDialog({ modal, width, height }: RejectDialogProps) {
  const inner = dialogInner(width, height);
  const many = modal.form.fields.length > 1;
  const footer = modal.busy ? "rejecting…" : `enter reject · ${many ? "tab next field · space toggles · " : ""}ctrl+j new line · esc cancel`;
  return (
    <Dialog title={`Reject ${modal.title}`} width={width} height={height} footer={footer}>
      <FormView form={modal.form} width={inner.width} fieldRows={Math.max(1, inner.height - (many ? 4 : 2))} height={inner.height} />
    </Dialog>
  );
}
