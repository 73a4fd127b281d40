import { useRef } from "react";
import { HelpOverlay } from "../help/HelpOverlay.tsx";
import { helpLines } from "./keys/controllers.ts";
import { renderDialog } from "./keys/dialog-registry.ts";
import type { MirrorView } from "../mirror/daemon-mirror.ts";
import { listTop } from "../kit/list-top.ts";
import type { OutputStore } from "../mirror/output-store.ts";
import type { Screen } from "./screen.ts";
import { currentView, type UiState } from "./ui-state.ts";
import { AgentsView } from "./AgentsView.tsx";
import { DiffView } from "../diff/DiffView.tsx";
import { FlowsView } from "../flows/FlowsView.tsx";
import { flowRow } from "../flows/flow-rows.ts";
import { PhasesView } from "../phases/PhasesView.tsx";

export interface MainViewProps {
  ui: UiState;
  view: MirrorView;
  screen: Screen;
  store: OutputStore;
}

/** What fills the space between the header and the bottom lines: a dialog, or the current view. */
export function MainView({ ui, view, screen, store }: MainViewProps) {
  const { layout: lay } = screen;
  const { width, height } = lay.main;
  // The list's first row, kept across renders so the selection moves within the window.
  const topRef = useRef(0);
  // in lines, headers included; a selection at the top line keeps its group's header in view above it
  const selRow = Math.max(0, screen.selectedId ? screen.list.rowOf(screen.selectedId) : 0);
  const rows = lay.list.height - 1;
  // the last agent selected: the headers of sources with none, after it, come into view too
  const last = screen.list.length > 0 && screen.list.at(screen.list.length - 1) === screen.selectedId;
  let top = last ? Math.min(selRow, listTop(topRef.current, screen.list.rowCount - 1, screen.list.rowCount, rows)) : listTop(topRef.current, selRow, screen.list.rowCount, rows);
  if (top === selRow && selRow > 0 && lay.list.height > 2 && screen.list.rows(selRow - 1, 1)[0]?.kind === "header") top = selRow - 1;
  topRef.current = top;
  const m = ui.modal;
  if (m.kind === "help") return <HelpOverlay width={width} height={height} top={m.top} lines={helpLines()} />;
  if (m.kind !== "none") return renderDialog(m, { width, height, entities: view.entities });
  const current = currentView(ui);
  if (current === "diff" && ui.diff) return <DiffView diff={ui.diff} width={width} height={height} />;
  if (current === "flows") {
    const rows = ui.flows.list?.map((f) => flowRow(f, view.entities.agents, Date.now())) ?? null;
    // as the keys see it (selectedFlow): the one chosen, else the first
    const selected = rows?.find((r) => r.name === ui.flows.selected)?.name ?? rows?.[0]?.name ?? null;
    return <FlowsView rows={rows} selected={selected} error={ui.flows.error} width={width} height={height} />;
  }
  if (current === "phases") {
    return (
      <PhasesView
        layout={screen.phaseLayout}
        rows={screen.phaseRows}
        selected={screen.phaseSelected}
        content={screen.phaseContent}
        contentTop={ui.phases.contentTop}
        pane={ui.phases.pane}
        loaded={view.entities.loaded}
        hosts={screen.phaseHosts}
      />
    );
  }
  return (
    <AgentsView
      layout={lay}
      list={screen.list}
      loaded={view.entities.loaded}
      selectedId={screen.selectedId}
      listTop={topRef.current}
      pane={ui.pane}
      filter={ui.filter.text}
      store={store}
      selected={screen.selected}
      requests={screen.requests}
      requestRows={screen.requestRows}
      sources={view.sources?.list ?? null}
      raw={ui.raw}
      scroll={ui.scroll}
    />
  );
}
