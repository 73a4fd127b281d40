import { memo, useMemo } from "react";
import { Box, Text } from "ink";
import type { Agent } from "../../protocol/entities.ts";
import { rowColumns } from "../format.ts";
import { AgentRow } from "./AgentRow.tsx";
import { PaneTitle } from "./PaneTitle.tsx";

export interface AgentListProps {
  agents: readonly Agent[];
  selectedId: string | null;
  /** First visible row: kept by the caller so the window moves only as far as the selection needs. */
  top: number;
  needs: ReadonlySet<string>;
  now: number;
  width: number;
  height: number;
  focused: boolean;
  filter: string;
  total: number;
  loaded: boolean;
}

export const AgentList = memo(function AgentList({ agents, selectedId, top, needs, now, width, height, focused, filter, total, loaded }: AgentListProps) {
  const cols = useMemo(() => rowColumns(width), [width]);
  const rows = Math.max(0, height - 1);
  const shown = agents.slice(top, top + rows);
  const count = filter ? `${agents.length}/${total}` : `${total}`;
  const title = `Agents (${count})${filter ? ` · filter: ${filter}` : ""}`;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {shown.map((a) => (
        <AgentRow key={a.id} agent={a} cols={cols} now={now} selected={a.id === selectedId} needsPerson={needs.has(a.id)} focused={focused} />
      ))}
      {shown.length === 0 && rows > 0 ? (
        <Text wrap="truncate-end" dimColor>
          {!loaded ? " loading…" : total === 0 ? " no agents yet: press n to start one" : " no agent matches the filter"}
        </Text>
      ) : null}
    </Box>
  );
});
