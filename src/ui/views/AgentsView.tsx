import { Box, Text } from "ink";
import type { Agent } from "../../protocol/entities.ts";
import { AgentList } from "../components/AgentList.tsx";
import type { Layout } from "../layout.ts";
import type { OutputStore } from "../output-store.ts";
import type { Scroll } from "../state/scroll.ts";
import { OutputView } from "./OutputView.tsx";
import { useTheme } from "../theme.ts";

export interface AgentsViewProps {
  layout: Layout;
  agents: readonly Agent[];
  total: number;
  loaded: boolean;
  selectedId: string | null;
  listTop: number;
  needs: ReadonlySet<string>;
  now: number;
  pane: "list" | "output";
  filter: string;
  store: OutputStore;
  selected: Agent | null;
  raw: boolean;
  scroll: Scroll;
}

/** The home view: the agents beside (or, when narrow, above) the selected agent's output. */
export function AgentsView(p: AgentsViewProps) {
  const theme = useTheme();
  const { layout: l } = p;
  const list = (
    <AgentList
      agents={p.agents}
      selectedId={p.selectedId}
      top={p.listTop}
      needs={p.needs}
      now={p.now}
      width={l.list.width}
      height={l.list.height}
      focused={p.pane === "list"}
      filter={p.filter}
      total={p.total}
      loaded={p.loaded}
    />
  );
  const output = (
    <OutputView store={p.store} agent={p.selected} raw={p.raw} scroll={p.scroll} width={l.output.width} height={l.output.height} focused={p.pane === "output"} />
  );
  if (l.stacked) {
    return (
      <Box flexDirection="column" width={l.main.width} height={l.main.height}>
        {list}
        {output}
      </Box>
    );
  }
  const bar = theme.ascii ? "|" : "│";
  return (
    <Box flexDirection="row" width={l.main.width} height={l.main.height}>
      {list}
      <Box flexDirection="column" width={1} height={l.main.height}>
        <Text dimColor>{`${bar}\n`.repeat(l.main.height).trimEnd()}</Text>
      </Box>
      {output}
    </Box>
  );
}
