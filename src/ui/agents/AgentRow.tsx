import { createElement, memo, type ReactNode } from "react";
import { Text } from "ink";
import type { AgentStatus } from "../../protocol/entities.ts";
import { sameRowCells, type RowCells, type RowColumns } from "./row-format.ts";
import { selectionMark, statusColour, statusSymbol, tint, useTheme } from "../kit/theme.ts";
import type { ClockCell, RowTicker } from "./row-ticker.ts";
import type { InkNode } from "../kit/terminal/repaint.ts";

export interface AgentRowProps {
  agentId: string;
  status: AgentStatus;
  /** The row's text, column by column, as it reads now (`rowCells`): what the row is memoised on. */
  cells: RowCells;
  cols: RowColumns;
  selected: boolean;
  /** Waits for the person: questions or a user conversation. */
  needsPerson: boolean;
  focused: boolean;
  /** Moves the clock-bound cells between renders (`RowTicker`). */
  ticker: RowTicker;
  /** Greyed: its source is not reachable, so this is the agent as last seen. */
  dim?: boolean;
}

/** Text the ticker can repaint in place: an inline element of its own, holding one string. */
function ClockText({ ticker, agentId, which, children }: { ticker: RowTicker; agentId: string; which: ClockCell; children: string }): ReactNode {
  return createElement("ink-text", { ref: (node: InkNode | null) => ticker.cell(agentId, which, node) }, children);
}

/**
 * One agent on one line. Memoised on what it shows (its cells and marks), so moving the selection
 * redraws two rows, an update that changes nothing shown redraws none, and the clock moves in place.
 */
export const AgentRow = memo(function AgentRow({ agentId, status, cells: c, cols, selected, needsPerson, focused, ticker, dim = false }: AgentRowProps) {
  const theme = useTheme();
  const mark = selected ? selectionMark(theme) : " ";
  return (
    <Text wrap="truncate-end" inverse={selected && focused && theme.color} bold={selected} dimColor={dim}>
      {mark} <Text color={tint(theme, statusColour(status))}>{statusSymbol(theme, status)}</Text>{" "}
      <Text color={tint(theme, "yellow")} bold>{needsPerson ? "!" : " "}</Text> {c.name} <Text color={tint(theme, statusColour(status))}>{c.status}</Text>
      {cols.provider ? ` ${c.provider}` : ""}{" "}
      <ClockText ticker={ticker} agentId={agentId} which="elapsed">
        {c.elapsed}
      </ClockText>
      {cols.cost ? ` ${c.cost}` : ""}
      {cols.what ? (
        <Text color={tint(theme, "gray")}>
          {" "}
          <ClockText ticker={ticker} agentId={agentId} which="what">
            {c.what}
          </ClockText>
        </Text>
      ) : (
        ""
      )}
    </Text>
  );
}, (a, b) => a.agentId === b.agentId && a.status === b.status && a.cols === b.cols && a.selected === b.selected && a.needsPerson === b.needsPerson && a.focused === b.focused && a.ticker === b.ticker && a.dim === b.dim && sameRowCells(a.cells, b.cells));
