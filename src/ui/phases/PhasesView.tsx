import { Box, Text } from "ink";
import { PhaseContent } from "./components/PhaseContent.tsx";
import { PhaseTree } from "./components/PhaseTree.tsx";
import type { Layout } from "../kit/layout.ts";
import { rowName, type PhaseRow } from "./phase-rows.ts";
import type { PhasesUi } from "./phases-ui.ts";
import { VerticalRule } from "../kit/components/VerticalRule.tsx";

export interface PhasesViewProps {
  layout: Layout;
  rows: readonly PhaseRow[];
  selected: PhaseRow | null;
  /** The selected item's content, wrapped to the content pane. */
  content: readonly string[];
  contentTop: number;
  pane: PhasesUi["pane"];
  loaded: boolean;
  /** The pool's line over the tree and content (hosts-line.ts); the layout has its row. */
  hosts: string | null;
}

/** Initiatives → phases → tasks beside (or, when narrow, above) the selected item's content. */
export function PhasesView(props: PhasesViewProps) {
  const body = <PhasesBody {...props} />;
  if (!props.hosts) return body;
  return (
    <Box flexDirection="column" width={props.layout.main.width}>
      <Text dimColor wrap="truncate">
        {props.hosts}
      </Text>
      {body}
    </Box>
  );
}

function PhasesBody({ layout: l, rows, selected, content, contentTop, pane, loaded }: PhasesViewProps) {
  const tree = <PhaseTree rows={rows} selectedKey={selected?.key ?? null} width={l.list.width} height={l.list.height} focused={pane === "tree"} loaded={loaded} />;
  const side = (
    <PhaseContent
      title={selected ? `${selected.kind} ${rowName(selected)}` : "Content"}
      lines={content}
      top={contentTop}
      width={l.output.width}
      height={l.output.height}
      focused={pane === "content"}
    />
  );
  if (l.stacked) {
    return (
      <Box flexDirection="column" width={l.main.width} height={l.main.height}>
        {tree}
        {side}
      </Box>
    );
  }
  return (
    <Box flexDirection="row" width={l.main.width} height={l.main.height}>
      {tree}
      <VerticalRule height={l.main.height} />
      {side}
    </Box>
  );
}
