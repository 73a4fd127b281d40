import { Text } from "ink";
import type { ToggleField } from "../form.ts";

export interface ToggleFieldViewProps {
  field: ToggleField;
  active: boolean;
}

export function ToggleFieldView({ field, active }: ToggleFieldViewProps) {
  return (
    <Text wrap="truncate-end">
      {active ? "> " : "  "}[{field.value ? "x" : " "}] {field.value ? "yes" : "no"}
      <Text dimColor>{active ? "  space to change" : ""}</Text>
    </Text>
  );
}
