import { memo } from "react";
import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { tint, useTheme } from "../kit/theme.ts";

export interface BannerProps {
  text: string;
  width: number;
}

/** A warning across the screen, e.g. the daemon went away. */
export const Banner = memo(function Banner({ text, width }: BannerProps) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" color={tint(theme, "red")} inverse={theme.color} bold>
      {fit(` ${theme.ascii ? "!!" : "⚠"} ${text}`, width)}
    </Text>
  );
});
