import { memo, useMemo } from "react";
import { Box, Text } from "ink";
import type { Agent } from "../../protocol/entities.ts";
import { LIST_GLYPHS, treePrefix } from "../../output/tree.ts";
import { rowColumns } from "./row-format.ts";
import { useTheme } from "../shared/theme.ts";
import { AgentRow } from "./AgentRow.tsx";
import { PaneTitle } from "../shared/components/PaneTitle.tsx";

export interface AgentListProps {
  agents: readonly Agent[];
  /** Per agent, its place under the agent that started it (`TreeRow.lasts`); absent: top level. */
  tree: ReadonlyMap<string, readonly boolean[]>;
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

export const AgentList = memo(function AgentList({ agents, tree, selectedId, top, needs, now, width, height, focused, filter, total, loaded }: AgentListProps) {
  const theme = useTheme();
  const cols = useMemo(() => rowColumns(width), [width]);
  const glyphs = LIST_GLYPHS[theme.ascii ? "ascii" : "unicode"];
  const rows = Math.max(0, height - 1);
  const shown = agents.slice(top, top + rows);
  const count = filter ? `${agents.length}/${total}` : `${total}`;
  const title = `Agents (${count})${filter ? ` · filter: ${filter}` : ""}`;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {shown.map((a) => (
        <AgentRow key={a.id} agent={a} tree={treePrefix(tree.get(a.id) ?? [], glyphs)} cols={cols} now={now} selected={a.id === selectedId} needsPerson={needs.has(a.id)} focused={focused} />
      ))}
      {shown.length === 0 && rows > 0 ? (
        <Text wrap="truncate-end" dimColor>
          {!loaded ? " loading…" : total === 0 ? " no agents yet: press n to start one" : " no agent matches the filter"}
        </Text>
      ) : null}
    </Box>
  );
});
