import { Box } from "ink";
import type { Agent } from "../../protocol/entities.ts";
import type { SourceView } from "../mirror/daemon-mirror.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import { PermissionPanel } from "../permissions/PermissionPanel.tsx";
import { AgentList } from "../agents/AgentList.tsx";
import type { ListIndex } from "../agents/list-index.ts";
import type { Layout } from "../kit/layout.ts";
import type { OutputStore } from "../mirror/output-store.ts";
import type { Scroll } from "../output/scroll.ts";
import { OutputView } from "../output/OutputView.tsx";
import { VerticalRule } from "../kit/components/VerticalRule.tsx";

export interface AgentsViewProps {
  layout: Layout;
  /** The agents as listed (`list-index.ts`). */
  list: ListIndex;
  loaded: boolean;
  selectedId: string | null;
  listTop: number;
  pane: "list" | "output";
  filter: string;
  store: OutputStore;
  selected: Agent | null;
  /** The selected agent's pending permission requests: the first shows under its output. */
  requests: readonly PermissionRequest[];
  /** Rows the first request takes under the output. */
  requestRows: number;
  raw: boolean;
  scroll: Scroll;
  /** With several sources: them, in the list's order. */
  sources?: readonly SourceView[] | null;
}

/** The home view: the agents beside (or, when narrow, above) the selected agent's output. */
export function AgentsView(p: AgentsViewProps) {
  const { layout: l } = p;
  const list = (
    <AgentList
      list={p.list}
      selectedId={p.selectedId}
      top={p.listTop}
      width={l.list.width}
      height={l.list.height}
      focused={p.pane === "list"}
      filter={p.filter}
      loaded={p.loaded}
      sources={p.sources}
    />
  );
  const output = <OutputWithRequest {...p} />;
  if (l.stacked) {
    return (
      <Box flexDirection="column" width={l.main.width} height={l.main.height}>
        {list}
        {output}
      </Box>
    );
  }
  return (
    <Box flexDirection="row" width={l.main.width} height={l.main.height}>
      {list}
      <VerticalRule height={l.main.height} />
      {output}
    </Box>
  );
}

/** The output pane; under it, what the agent waits on (it takes up to half the pane, a plan more). */
function OutputWithRequest(p: AgentsViewProps) {
  const { width, height } = p.layout.output;
  const request = p.requests[0];
  const cwd = p.selected?.cwd ?? null;
  const panel = request ? p.requestRows : 0;
  const out = <OutputView store={p.store} agent={p.selected} raw={p.raw} scroll={p.scroll} width={width} height={height - panel} focused={p.pane === "output"} />;
  if (!request) return out;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {out}
      <PermissionPanel request={request} waiting={p.requests.length} cwd={cwd} width={width} height={panel} />
    </Box>
  );
}
