import { Text } from "ink";
import { sanitizeLines } from "../../../output/sanitize.ts";
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
      {/* the question may quote what an agent wrote (a proposal's title, a task's name) */}
      <Text wrap="wrap">{sanitizeLines(question)}</Text>
    </Dialog>
  );
}
