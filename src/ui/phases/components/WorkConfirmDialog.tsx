import type { WorkConfirm } from "../phases-ui.ts";
import { ConfirmDialog } from "../../kit/components/ConfirmDialog.tsx";

export interface WorkConfirmDialogProps {
  confirm: WorkConfirm;
  busy: boolean;
  width: number;
  height: number;
}

function confirmQuestion(c: WorkConfirm): { title: string; question: string } {
  switch (c.action) {
    case "detail":
      return { title: `Detail ${c.title}?`, question: `Start a detail agent (a paid agent run) to break ${c.title} into tasks?` };
    case "dispatch":
      return {
        title: `Dispatch ${c.title}?`,
        question: `Let troupe drive ${c.title}: it starts detail and execute agents (paid agent runs) as phases and tasks become ready, and merges their work. g again stops it.`,
      };
  }
}

/** `D` and `g` start paid agents: each asks first. */
export function WorkConfirmDialog({ confirm, busy, width, height }: WorkConfirmDialogProps) {
  const q = confirmQuestion(confirm);
  return <ConfirmDialog title={q.title} question={q.question} busy={busy} width={width} height={height} />;
}
