import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { tint, useTheme } from "../shared/theme.ts";

export interface HeaderProps {
  workspace: string;
  total: number;
  running: number;
  needYou: number;
  view: string;
  width: number;
}

export function Header({ workspace, total, running, needYou, view, width }: HeaderProps) {
  const theme = useTheme();
  const right = `${view} · ? help `;
  const facts = `${total} ${total === 1 ? "agent" : "agents"} · ${running} running${needYou ? ` · ${needYou} need${needYou === 1 ? "s" : ""} you` : ""}`;
  const left = ` troupe · ${workspace} · `;
  const room = Math.max(0, width - right.length);
  const leftText = fit(left + facts, room);
  return (
    <Text wrap="truncate-end" bold>
      <Text color={tint(theme, needYou ? "yellow" : "cyan")}>{leftText}</Text>
      {right.length <= width ? right : ""}
    </Text>
  );
}
