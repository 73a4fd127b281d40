import { helpScrollMax } from "../help/HelpOverlay.tsx";
import { helpLines } from "./keys/controllers.ts";
import type { MirrorView, SourceView } from "../mirror/daemon-mirror.ts";
import type { Size } from "../kit/terminal/useTerminalSize.ts";
import { layout } from "../kit/layout.ts";
import { listIndex } from "../agents/list-index.ts";
import { currentView, type UiState } from "./ui-state.ts";
import { workAttentionKeys } from "../mirror/work-state.ts";
import { permissionsOf } from "../mirror/permissions-state.ts";
import { phaseRows, rowContent } from "../phases/phase-rows.ts";
import { wrapText } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import { diffRows } from "../diff/DiffView.tsx";
import { permissionPanelHeight } from "../permissions/PermissionPanel.tsx";
import type { Screen } from "./screen.ts";
import { hostsLine } from "../phases/hosts-line.ts";

const NONE: readonly string[] = [];

/** The sources that are down, by label (the same array while that stays). */
function unreachable(list: readonly SourceView[]): readonly string[] {
  const down = list.filter((s) => s.connection.state === "down").map((s) => s.label);
  return down.length ? down : NONE;
}

/**
 * The screen as it is now: for rendering and, afresh, for each key. `prev` (the last screen) is
 * what it builds on: the list and the phases tree are kept while what they are made of stays, so a
 * keypress costs what it changes, not a sort of every agent.
 */
export function deriveScreen(ui: UiState, view: MirrorView, term: Size, prev: Screen | null = null): Screen {
  const { entities, connection } = view;
  const list = listIndex(prev?.list ?? null, entities, ui.filter.text, view.sources ?? null);
  const selectedId = ui.selectedId !== null && list.indexOf(ui.selectedId) !== -1 ? ui.selectedId : (list.at(0) ?? null);
  // with several sources, one that is down says so in the header and over its agents; all down is a banner
  const banner = connection.state === "down" ? `${view.sources ? "no source reachable" : "daemon not reachable"} (${connection.error}); retrying, agents keep running` : null;
  const extra = (banner ? 1 : 0) + (ui.filter.editing ? 1 : 0);
  const lay = layout(term.columns, term.rows, extra, list.rowCount);
  // Only while the phases view is open (or under a view opened from it): sorting the tree is work,
  // done again only when the work, the agents or what is collapsed changed.
  const phaseSource = ui.views.includes("phases") ? [entities.work, entities.agents, ui.phases.collapsed] : null;
  const samePhases = phaseSource !== null && prev?.phaseSource?.every((x, i) => x === phaseSource[i]);
  const phases = phaseSource === null ? [] : samePhases ? prev!.phaseRows : phaseRows(entities.work, entities.agents, ui.phases.collapsed);
  const phaseSelected = phases.find((r) => r.key === ui.phases.selected) ?? phases[0] ?? null;
  const phaseHosts = hostsLine(ui.phases.hosts, term.columns);
  const phaseLayout = layout(term.columns, term.rows, extra + (phaseHosts ? 1 : 0), phases.length);
  const contentWidth = Math.max(1, phaseLayout.output.width - 1);
  const selected = selectedId ? (entities.agents[selectedId] ?? null) : null;
  const requests = selectedId ? permissionsOf(entities.permissions, selectedId) : [];
  const first = requests[0];
  // up to half the output pane for a tool call, more for questions and a plan
  const requestRows = first ? permissionPanelHeight(first, selected?.cwd ?? null, lay.output.width, Math.floor(lay.output.height * (first.kind === "tool" ? 0.5 : 0.65))) : 0;
  const phaseContent = phaseSelected && currentView(ui) === "phases" ? rowContent(phaseSelected).flatMap((l) => (l ? wrapText(sanitize(l), contentWidth) : [""])) : [];
  return {
    list,
    ids: list,
    needs: list.needs,
    selectedId,
    selected,
    requests,
    requestRows,
    total: list.total,
    running: list.running,
    needYou: list.needs.size + workAttentionKeys(entities.work).length,
    unreachable: view.sources ? unreachable(view.sources.list) : null,
    phaseRows: phases,
    phaseSource,
    phaseSelected,
    phaseLayout,
    phaseContent,
    phaseHosts,
    banner,
    layout: lay,
    viewport: { width: lay.output.width, height: Math.max(0, lay.output.height - requestRows - 1) },
    diffRows: diffRows(lay.main.height),
    // the help text is built from every controller's bindings (2-6 ms each time): only while it shows
    helpMax: ui.modal.kind === "help" ? helpScrollMax(lay.main.width, lay.main.height, helpLines()) : 0,
  };
}
