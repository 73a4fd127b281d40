import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { DashboardEnv as KeyEnv } from "./keys/key-env.ts";
import { openAgentDiff, openDiff, textLines } from "../diff/open-diff.ts";
import { closeIfSettled } from "../permissions/decide.ts";
import type { Mirror, MirrorView } from "../mirror/daemon-mirror.ts";
import { deriveScreen } from "./derive-screen.ts";
import type { Screen } from "./screen.ts";
import { createUiStore } from "./ui-store.ts";
import { currentView, type UiState } from "./ui-state.ts";
import type { DashboardDeps } from "../mirror/deps.ts";
import { useMirror } from "../mirror/useMirror.ts";
import type { Size } from "../kit/terminal/useTerminalSize.ts";

const STATUS_MS = 8000;

export interface Dashboard {
  ui: UiState;
  view: MirrorView;
  screen: Screen;
  /** A key handler's view of the dashboard as it is at this moment (not as last drawn). */
  envNow: () => KeyEnv;
}

/** The dashboard's state: the UI store, the mirror, what derives from both, and the env keys run in. */
export function useDashboard(deps: DashboardDeps, mirror: Mirror, term: Size, shell: Pick<KeyEnv, "quit" | "suspend">, initial?: Partial<UiState>): Dashboard {
  const [store] = useState(() => createUiStore(initial));
  const ui = useSyncExternalStore(store.subscribe, store.get);
  const view = useMirror(mirror);
  const { columns, rows } = term; // the size object is new at every render; its numbers are what matter
  // each screen builds on the last (the list is sorted again only when an agent moved)
  const last = useRef<Screen | null>(null);
  const screen = useMemo(() => deriveScreen(ui, view, { columns, rows }, last.current), [ui, view, columns, rows]);
  last.current = screen;

  // The selection as shown becomes the selection kept (the first row until one is chosen); over
  // several sources only once each has answered (or failed), so that the first row is that of them all.
  const settled = !view.sources || view.sources.list.every((s) => s.connection.state !== "connecting");
  useEffect(() => {
    if (settled && screen.selectedId !== ui.selectedId) store.dispatch({ type: "select", id: screen.selectedId });
  }, [settled, screen.selectedId, ui.selectedId, store]);

  // A request answered elsewhere (or whose agent ended) closes its dialog with a line saying so.
  useEffect(() => closeIfSettled({ ui, entities: view.entities, dispatch: store.dispatch }), [ui, view.entities, store]);

  // A status message fades after a while.
  useEffect(() => {
    if (!ui.status) return;
    const t = setTimeout(() => store.dispatch({ type: "status", status: null }), STATUS_MS);
    return () => clearTimeout(t);
  }, [ui.status, store]);

  // The pool's hosts over the phases tree: read when the view opens and again as the work moves
  // (a task started or ended changes a host's agents running); the daemon asks each host then.
  const phasesOpen = currentView(ui) === "phases";
  useEffect(() => {
    if (!phasesOpen) return;
    let current = true;
    deps.client.hosts().then(
      (hosts) => current && store.dispatch({ type: "hostsLoaded", hosts }),
      // no pool line then: the tree is what the view is for
      () => {},
    );
    return () => {
      current = false;
    };
  }, [phasesOpen, view.entities.work, deps.client, store]);

  const envNow = (): KeyEnv => {
    const u = store.get();
    const v = mirror.getView();
    const s = u === ui && v === view ? screen : deriveScreen(u, v, term, last.current);
    const env: KeyEnv = {
      ui: u,
      screen: s,
      entities: v.entities,
      dispatch: store.dispatch,
      mirror,
      deps,
      selected: s.selected,
      output: () => (s.selected ? (mirror.output.get(s.selected.id)?.source(u.raw) ?? null) : null),
      quit: shell.quit,
      suspend: shell.suspend,
      // the shell routes between features: the phases view opens the diff view through these
      openAgentDiff: (agent, title) => openAgentDiff(env, agent, title),
      openTextDiff: (key, title, text) => openDiff(env, key, title, null, text.then(textLines)),
    };
    return env;
  };
  return { ui, view, screen, envNow };
}
