import type { Agent } from "../../protocol/entities.ts";
import { isLive } from "../../protocol/status.ts";
import { helpScrollMax } from "../help/HelpOverlay.tsx";
import type { MirrorView } from "../mirror/daemon-mirror.ts";
import type { Size } from "../terminal/useTerminalSize.ts";
import { layout, type Layout } from "../shared/layout.ts";
import { hasQuestions, visibleRows, waitingOnPerson, type EntitiesState } from "../mirror/entities.ts";
import type { Viewport } from "../output/scroll.ts";
import { currentView, type UiState } from "./ui-state.ts";
import { workAttentionKeys } from "../phases/work-state.ts";
import { permissionsOf } from "../permissions/permissions-state.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import { phaseRows, rowContent, type PhaseRow } from "../phases/phase-rows.ts";
import { sanitize, wrapText } from "../../output/text.ts";
import { diffRows } from "../diff/DiffView.tsx";
import { permissionPanelHeight } from "../permissions/PermissionPanel.tsx";

/** Everything the dashboard derives from its state, the mirror and the terminal size: one pure function. */
export interface Screen {
  /** The list as shown, in order, and its ids. */
  visible: Agent[];
  ids: string[];
  /** Per agent shown, where it sits in the tree of who started whom (`TreeRow.lasts`; empty: top level). */
  tree: ReadonlyMap<string, readonly boolean[]>;
  /** Agents waiting for the person. */
  needs: Set<string>;
  /** The selection as shown: the one chosen, or the first when that one is filtered out or gone. */
  selectedId: string | null;
  selected: Agent | null;
  /** The selected agent's pending permission requests, oldest first (the pane shows the first). */
  requests: PermissionRequest[];
  /** Rows under the output that show the first of them (0: none). */
  requestRows: number;
  total: number;
  running: number;
  /** What waits for the person: agents, and proposals to review (the header's count). */
  needYou: number;
  /** The phases tree as shown (empty unless the phases view is open), and its selection as shown. */
  phaseRows: PhaseRow[];
  phaseSelected: PhaseRow | null;
  /** The phases view's tree and content pane, and the selected item's content wrapped to that pane. */
  phaseLayout: Layout;
  phaseContent: string[];
  banner: string | null;
  layout: Layout;
  /** The output pane's rows for text (its title takes one). */
  viewport: Viewport;
  diffRows: number;
  /** How far the help overlay scrolls; 0 while it is closed. */
  helpMax: number;
}

export function deriveScreen(ui: UiState, view: MirrorView, term: Size): Screen {
  const { entities, connection } = view;
  const rows = visibleRows(entities, ui.filter.text);
  const visible = rows.map((r) => r.item);
  const tree = new Map(rows.map((r) => [r.item.id, r.lasts]));
  const ids = visible.map((a) => a.id);
  const agents = Object.values(entities.agents);
  const selectedId = ui.selectedId !== null && ids.includes(ui.selectedId) ? ui.selectedId : (ids[0] ?? null);
  const banner = connection.state === "down" ? `daemon not reachable (${connection.error}); retrying, agents keep running` : null;
  const extra = (banner ? 1 : 0) + (ui.filter.editing ? 1 : 0);
  const lay = layout(term.columns, term.rows, extra, visible.length);
  const needs = needsOf(entities);
  // Only while the phases view is open (or under a view opened from it): sorting the tree is work.
  const phases = ui.views.includes("phases") ? phaseRows(entities.work, entities.agents, ui.phases.collapsed) : [];
  const phaseSelected = phases.find((r) => r.key === ui.phases.selected) ?? phases[0] ?? null;
  const phaseLayout = layout(term.columns, term.rows, extra, phases.length);
  const contentWidth = Math.max(1, phaseLayout.output.width - 1);
  const selected = selectedId ? (entities.agents[selectedId] ?? null) : null;
  const requests = selectedId ? permissionsOf(entities.permissions, selectedId) : [];
  const first = requests[0];
  // up to half the output pane for a tool call, more for questions and a plan
  const requestRows = first ? permissionPanelHeight(first, selected?.cwd ?? null, lay.output.width, Math.floor(lay.output.height * (first.kind === "tool" ? 0.5 : 0.65))) : 0;
  const phaseContent = phaseSelected && currentView(ui) === "phases" ? rowContent(phaseSelected).flatMap((l) => (l ? wrapText(sanitize(l), contentWidth) : [""])) : [];
  return {
    visible,
    ids,
    tree,
    needs,
    selectedId,
    selected,
    requests,
    requestRows,
    total: agents.length,
    running: agents.filter((a) => isLive(a.status)).length,
    needYou: needs.size + workAttentionKeys(entities.work).length,
    phaseRows: phases,
    phaseSelected,
    phaseLayout,
    phaseContent,
    banner,
    layout: lay,
    viewport: { width: lay.output.width, height: Math.max(0, lay.output.height - requestRows - 1) },
    diffRows: diffRows(lay.main.height),
    // the help text is built from every controller's bindings (2-6 ms each time): only while it shows
    helpMax: ui.modal.kind === "help" ? helpScrollMax(lay.main.width, lay.main.height) : 0,
  };
}

function needsOf(entities: EntitiesState): Set<string> {
  const waiting = waitingOnPerson(entities);
  return new Set(Object.values(entities.agents).filter((a) => hasQuestions(a) || waiting.has(a.id)).map((a) => a.id));
}
