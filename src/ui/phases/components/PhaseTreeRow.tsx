import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../../output/text.ts";
import { sanitize } from "../../../output/sanitize.ts";
import { remoteHostOf, rowStatus, waitingOf, type PhaseRow } from "../phase-rows.ts";
import { selectionMark, tint, useTheme, type Colour } from "../../kit/theme.ts";

export interface PhaseTreeRowProps {
  row: PhaseRow;
  width: number;
  selected: boolean;
  focused: boolean;
}

const STATUS_COLOUR: Record<string, Colour> = {
  proposed: "yellow",
  approved: "cyan",
  pending: "cyan",
  in_progress: "green",
  dispatching: "green",
  active: "cyan",
  completed: "blue",
  blocked: "red",
  failed: "red",
  rejected: "gray",
  archived: "gray",
};

function fold(r: PhaseRow, ascii: boolean): string {
  if (r.kind === "task" || r.children === 0) return " ";
  if (r.expanded) return ascii ? "-" : "▾";
  return ascii ? "+" : "▸";
}

/** What follows the status: dependencies, the agent, the title. */
function details(r: PhaseRow): string {
  switch (r.kind) {
    case "initiative":
      return `${r.children} ${r.children === 1 ? "phase" : "phases"} · ${r.initiative.name}`;
    case "phase":
      return `${r.after.length ? `after: ${r.after.join(", ")} · ` : ""}${r.phase.title}`;
    case "task": {
      const waiting = waitingOf(r.task);
      return `${r.agent ? `@${r.agent} · ` : ""}${remoteHostOf(r.task) ? `on ${r.task.host} · ` : ""}${waiting ? `${waiting} · ` : ""}${r.after.length ? `after: ${r.after.join(", ")} · ` : ""}${r.task.title}`;
    }
  }
}

const INDENT = { initiative: "", phase: "  ", task: "    " } as const;

/**
 * The tree's rows are derived afresh on every change, so a row is compared by what it shows:
 * the same item objects (the state keeps an unchanged item's object) and the same derived facts.
 */
function sameRow(a: PhaseRow, b: PhaseRow): boolean {
  if (a.kind !== b.kind || a.key !== b.key || a.needs !== b.needs || a.initiative !== b.initiative) return false;
  if (a.kind === "initiative" && b.kind === "initiative") return a.expanded === b.expanded && a.children === b.children;
  if (a.kind === "phase" && b.kind === "phase") return a.phase === b.phase && a.expanded === b.expanded && a.children === b.children && a.after.join() === b.after.join();
  if (a.kind === "task" && b.kind === "task") return a.task === b.task && a.agent === b.agent && a.after.join() === b.after.join();
  return false;
}

/** One initiative, phase or task on one line; memoised, so moving the selection redraws two rows. */
export const PhaseTreeRow = memo(function PhaseTreeRow({ row, width, selected, focused }: PhaseTreeRowProps) {
  const theme = useTheme();
  const status = rowStatus(row);
  const slug = row.kind === "initiative" ? row.initiative.slug : row.kind === "phase" ? row.phase.slug : row.task.slug;
  const head = `${selected ? selectionMark(theme) : " "} ${INDENT[row.kind]}${fold(row, theme.ascii)} `;
  const name = `${slug} `;
  const statusText = `${status.replace("_", " ")} `;
  const rest = Math.max(0, width - head.length - 2 - name.length - statusText.length);
  return (
    <Text wrap="truncate-end" inverse={selected && focused && theme.color} bold={selected}>
      {head}
      <Text color={tint(theme, "yellow")} bold>{row.needs ? "!" : " "}</Text> {row.kind === "initiative" ? <Text bold>{name}</Text> : name}
      <Text color={tint(theme, STATUS_COLOUR[status])}>{statusText}</Text>
      <Text color={tint(theme, "gray")}>{fit(sanitize(details(row)), rest)}</Text>
    </Text>
  );
}, (a, b) => a.width === b.width && a.selected === b.selected && a.focused === b.focused && sameRow(a.row, b.row));
