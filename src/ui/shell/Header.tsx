import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { tint, useTheme } from "../kit/theme.ts";

export interface HeaderProps {
  workspace: string;
  total: number;
  running: number;
  needYou: number;
  view: string;
  width: number;
  /** With several sources: those not reachable now, named after the counts (absent: one source). */
  unreachable?: readonly string[] | null;
}

export const Header = memo(function Header({ workspace, total, running, needYou, view, width, unreachable = null }: HeaderProps) {
  const theme = useTheme();
  const right = `${view} · ? help `;
  const down = unreachable?.length ? ` · ${unreachable.join(", ")} unreachable` : "";
  const facts = `${total} ${total === 1 ? "agent" : "agents"} · ${running} running${needYou ? ` · ${needYou} need${needYou === 1 ? "s" : ""} you` : ""}${down}`;
  const room = Math.max(0, width - right.length);
  // over several sources the counts and who is unreachable come before their names, which a narrow screen cuts
  const leftText = fit(unreachable === null ? ` troupe · ${workspace} · ${facts}` : ` troupe · ${facts} · ${workspace}`, room);
  return (
    <Text wrap="truncate-end" bold>
      <Text color={tint(theme, needYou || down ? "yellow" : "cyan")}>{leftText}</Text>
      {right.length <= width ? right : ""}
    </Text>
  );
});
