import { isLive } from "../../protocol/status.ts";
import { helpScrollMax } from "../help/HelpOverlay.tsx";
import type { MirrorView } from "../mirror/daemon-mirror.ts";
import type { Size } from "../terminal/useTerminalSize.ts";
import { layout } from "../shared/layout.ts";
import { hasQuestions, visibleRows, waitingOnPerson, type EntitiesState } from "../mirror/entities-state.ts";
import { currentView, type UiState } from "./ui-state.ts";
import { workAttentionKeys } from "../phases/work-state.ts";
import { permissionsOf } from "../permissions/permissions-state.ts";
import { phaseRows, rowContent } from "../phases/phase-rows.ts";
import { sanitize, wrapText } from "../../output/text.ts";
import { diffRows } from "../diff/DiffView.tsx";
import { permissionPanelHeight } from "../permissions/PermissionPanel.tsx";
import type { Screen } from "./screen.ts";

/** The screen as it is now: for rendering and, afresh, for each key. */
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
