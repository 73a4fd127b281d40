import { memo } from "react";
import { Text } from "ink";
import type { Agent } from "../../protocol/entities.ts";
import { rowCells, type RowColumns } from "./row-format.ts";
import { selectionMark, statusColour, statusSymbol, tint, useTheme } from "../shared/theme.ts";

export interface AgentRowProps {
  agent: Agent;
  /** What goes before its name in the tree of who started whom (empty at the top level). */
  tree: string;
  cols: RowColumns;
  now: number;
  selected: boolean;
  /** Waits for the person: questions or a user conversation. */
  needsPerson: boolean;
  focused: boolean;
}

/** One agent on one line; memoised, so moving the selection redraws two rows, not the list. */
export const AgentRow = memo(function AgentRow({ agent, tree, cols, now, selected, needsPerson, focused }: AgentRowProps) {
  const theme = useTheme();
  const c = rowCells(agent, cols, now, tree);
  const mark = selected ? selectionMark(theme) : " ";
  return (
    <Text wrap="truncate-end" inverse={selected && focused && theme.color} bold={selected}>
      {mark} <Text color={tint(theme, statusColour(agent.status))}>{statusSymbol(theme, agent.status)}</Text>{" "}
      <Text color={tint(theme, "yellow")} bold>{needsPerson ? "!" : " "}</Text> {c.name} <Text color={tint(theme, statusColour(agent.status))}>{c.status}</Text>
      {cols.provider ? ` ${c.provider}` : ""} {c.elapsed}
      {cols.cost ? ` ${c.cost}` : ""}
      {cols.what ? <Text color={tint(theme, "gray")}> {c.what}</Text> : ""}
    </Text>
  );
});
