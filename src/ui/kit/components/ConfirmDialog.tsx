import { Text } from "ink";
import { Dialog } from "./Dialog.tsx";

export interface ConfirmDialogProps {
  title: string;
  question: string;
  busy: boolean;
  width: number;
  height: number;
}

export function ConfirmDialog({ title, question, busy, width, height }: ConfirmDialogProps) {
  return (
    <Dialog title={title} width={width} height={height} footer={busy ? "working…" : "y/enter yes · n/esc no"}>
      <Text wrap="wrap">{question}</Text>
    </Dialog>
  );
}
