import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import type { StatusMessage } from "./ui-state.ts";
import { tint, useTheme } from "../kit/theme.ts";

export interface StatusBarProps {
  status: StatusMessage | null;
  hint: string;
  width: number;
}

/** The bottom line: the last action's error or note, else the keys that matter here. */
export const StatusBar = memo(function StatusBar({ status, hint, width }: StatusBarProps) {
  const theme = useTheme();
  if (status) {
    const prefix = status.kind === "error" ? (theme.ascii ? "error: " : "✗ ") : "";
    return (
      <Text wrap="truncate-end" color={tint(theme, status.kind === "error" ? "red" : "green")} bold={status.kind === "error"}>
        {/* an error's text may carry a daemon's, an agent's or a remote's words */}
        {fit(` ${prefix}${sanitize(status.text.replace(/\s*\n\s*/g, " "))}`, width)}
      </Text>
    );
  }
  return (
    <Text wrap="truncate-end" dimColor={theme.color}>
      {fit(` ${hint}`, width)}
    </Text>
  );
});
