import { Box, Text } from "ink";
import { PaneTitle } from "../components/PaneTitle.tsx";

export interface PhasesViewProps {
  width: number;
  height: number;
}

/** Initiatives → phases → tasks, with approval: a place held for the work model. */
export function PhasesView({ width, height }: PhasesViewProps) {
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text="Phases   (esc back)" width={width} focused />
      <Text wrap="wrap"> no initiatives yet</Text>
      <Text wrap="wrap" dimColor>
        {" "}Initiatives, their phases and tasks (and the proposals to approve) will show here.
      </Text>
    </Box>
  );
}
