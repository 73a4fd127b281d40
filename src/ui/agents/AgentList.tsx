import { memo, useEffect, useMemo, useReducer, useState } from "react";
import { isHandedOver } from "../kit/terminal/hand-over.ts";
import { Box, Text, useStdout } from "ink";
import type { ListIndex } from "./list-index.ts";
import { LIST_GLYPHS, treePrefix } from "../../output/tree.ts";
import { rowCells, rowColumns } from "./row-format.ts";
import { useTheme } from "../kit/theme.ts";
import { AgentRow } from "./AgentRow.tsx";
import { PaneTitle } from "../kit/components/PaneTitle.tsx";
import { RowTicker, type TickedRow } from "./row-ticker.ts";
import type { SourceView } from "../mirror/daemon-mirror.ts";
import { GroupHeader } from "../sources/GroupHeader.tsx";

export interface AgentListProps {
  /** The agents as listed: order, tree, who waits for the person (`list-index.ts`). */
  list: ListIndex;
  selectedId: string | null;
  /** First visible row: kept by the caller so the window moves only as far as the selection needs. */
  top: number;
  width: number;
  height: number;
  focused: boolean;
  filter: string;
  loaded: boolean;
  /** With several sources: them, in the list's order (their headers, and whose agents are greyed). */
  sources?: readonly SourceView[] | null;
}

/** The ticker of the rows on screen: repaints their clocks in place on a terminal, else renders the list again. */
function useRowTicker(): RowTicker {
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [ticker] = useState(() => new RowTicker({ write: stdout.isTTY ? (bytes) => void stdout.write(bytes) : null, rows: () => stdout.rows ?? 0, redraw, paused: isHandedOver }));
  useEffect(() => () => ticker.stop(), [ticker]);
  return ticker;
}

/** The agents on screen (only those: the window from `top`), each row drawn from the time of this render. */
export const AgentList = memo(function AgentList({ list, selectedId, top, width, height, focused, filter, loaded, sources = null }: AgentListProps) {
  const theme = useTheme();
  const ticker = useRowTicker();
  const cols = useMemo(() => rowColumns(width), [width]);
  const glyphs = LIST_GLYPHS[theme.ascii ? "ascii" : "unicode"];
  const rows = Math.max(0, height - 1);
  const now = Date.now();
  const lines = list.rows(top, rows);
  const shown: TickedRow[] = [];
  const drawn = lines.map((l) => {
    if (l.kind === "header") return <GroupHeader key={`h${l.group}`} source={sources?.[l.group] ?? null} width={width} />;
    const a = l.agent;
    const src = sources?.[list.grouping?.indexOf(a.id) ?? -1] ?? null;
    // over several sources, an agent in the needing block says where it is
    const row: TickedRow = { agent: a, cols, tree: treePrefix(list.lasts(a.id), glyphs), note: src && list.needs.has(a.id) ? `${src.label} · ` : "" };
    shown.push(row);
    return (
      <AgentRow
        key={a.id}
        agentId={a.id}
        status={a.status}
        cells={rowCells(a, cols, now, row.tree, row.note)}
        cols={cols}
        selected={a.id === selectedId}
        needsPerson={list.needs.has(a.id)}
        focused={focused}
        ticker={ticker}
        dim={src?.connection.state === "down"}
      />
    );
  });
  // after every render: the rows the ticker moves are the ones on screen now
  useEffect(() => ticker.show(shown));
  const { total } = list;
  const count = filter ? `${list.length}/${total}` : `${total}`;
  const title = `Agents (${count})${filter ? ` · filter: ${filter}` : ""}`;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {drawn}
      {list.length === 0 && rows > lines.length ? (
        <Text wrap="truncate-end" dimColor>
          {!loaded ? " loading…" : total === 0 ? " no agents yet: press n to start one" : " no agent matches the filter"}
        </Text>
      ) : null}
    </Box>
  );
});
