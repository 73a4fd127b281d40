import { Text } from "ink";
import { fit } from "../../output/text.ts";
import { useTheme } from "../kit/theme.ts";

export interface FilterBarProps {
  text: string;
  width: number;
}

/** The `/` prompt while the filter is being typed. */
export function FilterBar({ text, width }: FilterBarProps) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end">
      {fit(`/${text}${theme.ascii ? "_" : "▏"}   (status words like waiting or running, or any text · enter keep · esc clear)`, width)}
    </Text>
  );
}
