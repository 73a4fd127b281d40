import type { MessageModal, ResumeModal } from "../modals.ts";
import { Dialog, dialogInner } from "../../../kit/components/Dialog.tsx";
import { FormView } from "../../../kit/components/FormView.tsx";

export interface ResumeDialogProps {
  modal: ResumeModal | MessageModal;
  width: number;
  height: number;
}

export function ResumeDialog({ modal, width, height }: ResumeDialogProps) {
  const inner = dialogInner(width, height);
  const resume = modal.kind === "resume";
  const footer = modal.busy ? (resume ? "resuming…" : "sending…") : `enter ${resume ? "resume" : "send"} · ctrl+j new line · esc cancel`;
  return (
    <Dialog title={`${resume ? "Resume" : "Message"} ${modal.name}`} width={width} height={height} footer={footer}>
      <FormView form={modal.form} width={inner.width} fieldRows={Math.max(1, inner.height - 2)} height={inner.height} />
    </Dialog>
  );
}
