import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import type { SourceView } from "../mirror/daemon-mirror.ts";
import { tint, useTheme } from "../kit/theme.ts";

/** What a source's header says besides its name: nothing while it is live. */
function sourceState(s: SourceView): string {
  const c = s.connection;
  if (c.state === "live") return "";
  if (c.state === "connecting") return " · connecting…";
  return ` · disconnected (${sanitize(c.error)}) · reconnecting; its agents as last seen`;
}

export interface GroupHeaderProps {
  /** null: the block of agents that need the person, across the sources. */
  source: SourceView | null;
  width: number;
}

/** A group's line in a list over several sources: the source (greyed while it is down), or "needs you". */
export const GroupHeader = memo(function GroupHeader({ source, width }: GroupHeaderProps) {
  const theme = useTheme();
  if (!source) {
    return (
      <Text wrap="truncate-end" bold color={tint(theme, "yellow")}>
        {fit(" ! needs you", width)}
      </Text>
    );
  }
  const down = source.connection.state === "down";
  return (
    <Text wrap="truncate-end" bold={!down} dimColor={down} color={down ? undefined : tint(theme, "cyan")}>
      {fit(` ${theme.ascii ? "==" : "──"} ${source.title}${sourceState(source)}`, width)}
    </Text>
  );
});
