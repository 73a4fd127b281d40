import { useRef } from "react";
import { Box, Text } from "ink";
import { fit } from "../../output/text.ts";
import { PaneTitle } from "../kit/components/PaneTitle.tsx";
import { listTop } from "../kit/list-top.ts";
import type { FlowRow } from "./flow-rows.ts";
import { selectionMark, tint, useTheme } from "../kit/theme.ts";

export interface FlowsViewProps {
  rows: readonly FlowRow[] | null;
  selected: string | null;
  error: string | null;
  width: number;
  height: number;
}

/** Scheduled flows, one line each: name, on/off, schedule, next run, last run and its agent. */
export function FlowsView({ rows, selected, error, width, height }: FlowsViewProps) {
  const theme = useTheme();
  const topRef = useRef(0);
  const visible = Math.max(0, height - 2);
  const list = rows ?? [];
  const index = selected ? list.findIndex((r) => r.name === selected) : 0;
  topRef.current = listTop(topRef.current, Math.max(0, index), list.length, visible);
  const nameW = Math.min(24, Math.max(4, ...list.map((r) => r.name.length)));
  const cronW = Math.min(20, Math.max(8, ...list.map((r) => r.cron.length)));
  const nextW = Math.max(4, ...list.map((r) => r.next.length));
  const cols = (name: string, on: string, cron: string, next: string) => `${name.padEnd(nameW)}  ${on.padEnd(3)}  ${cron.padEnd(cronW)}  ${next.padEnd(nextW)}  `;
  const empty = error ? ` flows could not be read: ${error}` : rows === null ? " loading…" : " no flows yet: troupe flow add NAME --cron EXPR --provider P --prompt TEXT";
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={`Flows${rows ? ` · ${rows.length}` : ""}   (esc back)`} width={width} focused />
      {list.length ? <Text dimColor wrap="truncate-end">{fit(`  ${cols("name", "on", "schedule", "next")}last run`, width)}</Text> : null}
      {list.slice(topRef.current, topRef.current + visible).map((r) => {
        const sel = r.name === selected;
        const head = `${sel ? selectionMark(theme) : " "} ${cols(fit(r.name, nameW), r.enabled ? "on" : "off", fit(r.cron, cronW), r.next)}`;
        return (
          <Text key={r.name} wrap="truncate-end" inverse={sel && theme.color} bold={sel} color={r.enabled ? undefined : tint(theme, "gray")}>
            {fit(head + r.last, width)}
          </Text>
        );
      })}
      {list.length === 0 || error ? <Text wrap="truncate-end" dimColor>{empty}</Text> : null}
    </Box>
  );
}
