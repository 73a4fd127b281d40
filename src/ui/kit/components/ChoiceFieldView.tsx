import { Box, Text } from "ink";
import { truncate } from "../../../output/text.ts";
import { sanitize } from "../../../output/sanitize.ts";
import type { ChoiceField } from "../form.ts";
import { tint, useTheme } from "../theme.ts";

export interface ChoiceFieldViewProps {
  field: ChoiceField;
  active: boolean;
  width: number;
}

/** A choice shown as ◂ value ▸; unavailable options listed with their note while active. */
export function ChoiceFieldView({ field, active, width }: ChoiceFieldViewProps) {
  const theme = useTheme();
  const opt = field.options[field.index];
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {active ? "> " : "  "}
        {theme.ascii ? "<" : "◂"} <Text bold>{opt ? sanitize(opt.label) : "(none available)"}</Text> {theme.ascii ? ">" : "▸"}
        <Text dimColor>{active ? "  ←/→ to change" : ""}</Text>
      </Text>
      {active
        ? field.options
            .filter((o) => o.disabled)
            .map((o) => (
              <Text key={o.value} wrap="truncate-end" color={tint(theme, "gray")}>
                {/* an option may be an agent's (AskUserQuestion's labels and descriptions) */}
                {truncate(sanitize(`    ${o.label}: ${o.note ?? "not available"}`), width)}
              </Text>
            ))
        : null}
    </Box>
  );
}
