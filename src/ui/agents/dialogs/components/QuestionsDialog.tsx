import type { QuestionsModal } from "../modals.ts";
import { Dialog, dialogInner } from "../../../kit/components/Dialog.tsx";
import { FormView } from "../../../kit/components/FormView.tsx";

export interface QuestionsDialogProps {
  modal: QuestionsModal;
  width: number;
  height: number;
}

/** One field per question (and per user conversation); all answers go in one submission. */
export function QuestionsDialog({ modal, width, height }: QuestionsDialogProps) {
  const inner = dialogInner(width, height);
  const notes: Record<string, string> = {};
  modal.questions.forEach((q, i) => (notes[`q:${q.id}`] = `${i + 1}. ${q.question}`));
  for (const c of modal.conversations) notes[`c:${c.id}`] = `${c.fromName} asks: ${c.question}`;
  const many = modal.form.fields.length > 1;
  const footer = modal.busy
    ? "sending…"
    : `${many ? "enter next (submits on the last) · tab/shift+tab move · ctrl+s submit all" : "enter submit"} · ctrl+j new line · esc cancel`;
  return (
    <Dialog title={modal.title} width={width} height={height} footer={footer}>
      <FormView form={modal.form} width={inner.width} fieldRows={Math.max(1, Math.min(6, inner.height - 4))} notes={notes} height={inner.height} />
    </Dialog>
  );
}
