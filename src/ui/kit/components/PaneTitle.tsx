import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../../output/text.ts";
import { useTheme } from "../theme.ts";

export interface PaneTitleProps {
  text: string;
  width: number;
  focused: boolean;
}

/** A pane's one-line title, standing out when the pane has the keyboard (inverse, or a marker without colour). */
export const PaneTitle = memo(function PaneTitle({ text, width, focused }: PaneTitleProps) {
  const theme = useTheme();
  const mark = focused ? (theme.ascii ? "# " : "▌ ") : "  ";
  return (
    <Text wrap="truncate-end" inverse={focused && theme.color} bold={focused} dimColor={!focused && theme.color}>
      {fit(`${mark}${text}`, width)}
    </Text>
  );
});
