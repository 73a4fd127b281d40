import { useRef } from "react";
import { Box, Text } from "ink";
import { listTop } from "../../kit/list-top.ts";
import type { PhaseRow } from "../phase-rows.ts";
import { PaneTitle } from "../../kit/components/PaneTitle.tsx";
import { PhaseTreeRow } from "./PhaseTreeRow.tsx";

export interface PhaseTreeProps {
  rows: readonly PhaseRow[];
  selectedKey: string | null;
  width: number;
  height: number;
  focused: boolean;
  loaded: boolean;
}

/** The tree's visible window only: the first row moves no further than the selection needs. */
export function PhaseTree({ rows, selectedKey, width, height, focused, loaded }: PhaseTreeProps) {
  const topRef = useRef(0);
  const visible = Math.max(0, height - 1);
  const index = selectedKey ? rows.findIndex((r) => r.key === selectedKey) : 0;
  topRef.current = listTop(topRef.current, Math.max(0, index), rows.length, visible);
  const shown = rows.slice(topRef.current, topRef.current + visible);
  const needs = rows.filter((r) => r.needs).length;
  const title = `Phases${needs ? ` · ${needs} to review` : ""}   (esc back)`;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={title} width={width} focused={focused} />
      {shown.map((r) => (
        <PhaseTreeRow key={r.key} row={r} width={width} selected={r.key === selectedKey} focused={focused} />
      ))}
      {rows.length === 0 && visible > 0 ? (
        <Text wrap="truncate-end" dimColor>
          {loaded ? " no initiatives yet: troupe initiative new NAME --goal TEXT, then troupe plan NAME" : " loading…"}
        </Text>
      ) : null}
    </Box>
  );
}
