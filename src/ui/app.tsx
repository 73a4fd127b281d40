import { useEffect, useMemo, useReducer, useRef } from "react";
import { Box, useApp, useInput } from "ink";
import { handleKey, keyContext, splitKeys, type KeyEnv } from "./commands.ts";
import { Banner } from "./components/Banner.tsx";
import { ConfirmDialog } from "./components/ConfirmDialog.tsx";
import { FilterBar } from "./components/FilterBar.tsx";
import { Header } from "./components/Header.tsx";
import { HelpOverlay, helpScrollMax } from "./components/HelpOverlay.tsx";
import { NewAgentDialog } from "./components/NewAgentDialog.tsx";
import { QuestionsDialog } from "./components/QuestionsDialog.tsx";
import { ResumeDialog } from "./components/ResumeDialog.tsx";
import { StatusBar } from "./components/StatusBar.tsx";
import type { Feed } from "./feed.ts";
import { listTop } from "./format.ts";
import { useFeed } from "./hooks/useFeed.ts";
import { useNow } from "./hooks/useNow.ts";
import { useTerminalSize, type Size } from "./hooks/useTerminalSize.ts";
import { hintLine } from "./keys.ts";
import { layout } from "./layout.ts";
import { needsPerson, visibleAgents } from "./state/entities.ts";
import { initialUi, uiReducer, type UiState } from "./state/ui.ts";
import type { DashboardDeps } from "./types.ts";
import { AgentsView } from "./views/AgentsView.tsx";
import { DiffView, diffRows } from "./views/DiffView.tsx";
import { PhasesView } from "./views/PhasesView.tsx";
import { isLive } from "../protocol/status.ts";

export interface AppProps {
  deps: DashboardDeps;
  feed: Feed;
  /** Pins the size (tests, benchmark); otherwise the terminal's, redrawn on resize. */
  size?: Size;
  initial?: Partial<UiState>;
  /** Told when the person quits, before the app unmounts. */
  onQuit?: () => void;
}

const STATUS_MS = 8000;

export function App({ deps, feed, size, initial, onQuit }: AppProps) {
  const { exit } = useApp();
  const term = useTerminalSize(size);
  const { entities, connection } = useFeed(feed);
  const [ui, dispatch] = useReducer(uiReducer, initial ? { ...initialUi, ...initial } : initialUi);
  const now = useNow(1000);

  const visible = useMemo(() => visibleAgents(entities, ui.filter.text), [entities, ui.filter.text]);
  const ids = useMemo(() => visible.map((a) => a.id), [visible]);
  const needs = useMemo(() => new Set(Object.values(entities.agents).filter((a) => needsPerson(a, entities)).map((a) => a.id)), [entities]);
  const selectedId = ui.selectedId !== null && ids.includes(ui.selectedId) ? ui.selectedId : (ids[0] ?? null);
  useEffect(() => {
    if (selectedId !== ui.selectedId) dispatch({ type: "select", id: selectedId });
  }, [selectedId, ui.selectedId]);
  const selected = selectedId ? (entities.agents[selectedId] ?? null) : null;

  useEffect(() => {
    if (!ui.status) return;
    const t = setTimeout(() => dispatch({ type: "status", status: null }), STATUS_MS);
    return () => clearTimeout(t);
  }, [ui.status]);

  const banner = connection.state === "down" ? `daemon not reachable (${connection.error}); retrying, agents keep running` : null;
  const extra = (banner ? 1 : 0) + (ui.filter.editing ? 1 : 0);
  const lay = layout(term.columns, term.rows, extra, visible.length);
  const viewport = { width: lay.output.width, height: Math.max(0, lay.output.height - 1) };

  const topRef = useRef(0);
  const selIndex = selectedId ? ids.indexOf(selectedId) : 0;
  topRef.current = listTop(topRef.current, Math.max(0, selIndex), ids.length, lay.list.height - 1);

  const env: KeyEnv = {
    ui,
    dispatch,
    entities,
    feed,
    deps,
    ids,
    selected,
    output: () => (selected ? (feed.output.get(selected.id)?.source(ui.raw) ?? null) : null),
    viewport,
    diffRows: diffRows(lay.main.height),
    helpMax: helpScrollMax(lay.main.width, lay.main.height),
    quit: () => {
      onQuit?.();
      exit();
    },
  };
  // Each key runs against the state its predecessor left: keys that arrived together go one per tick.
  const handlerRef = useRef(env);
  handlerRef.current = env;
  useInput((input, key) => {
    const keys = splitKeys(keyContext(handlerRef.current.ui), input, key);
    if (!keys) return handleKey(handlerRef.current, input, key);
    const step = () => {
      const ch = keys.shift();
      if (ch === undefined) return;
      handleKey(handlerRef.current, ch, { ...key, shift: /[A-Z]/.test(ch) });
      if (keys.length) setImmediate(step);
    };
    step();
  });

  const agents = Object.values(entities.agents);
  const running = agents.filter((a) => isLive(a.status)).length;
  const m = ui.modal;
  const main = (() => {
    const { width, height } = lay.main;
    switch (m.kind) {
      case "help":
        return <HelpOverlay width={width} height={height} top={m.top} />;
      case "questions":
        return <QuestionsDialog modal={m} width={width} height={height} />;
      case "new":
        return <NewAgentDialog modal={m} width={width} height={height} />;
      case "resume":
        return <ResumeDialog modal={m} width={width} height={height} />;
      case "stop":
        return (
          <ConfirmDialog
            title={`Stop ${m.name}?`}
            question={`Stop ${m.name} and its whole process group? Its worktree and output stay; r resumes it later.`}
            busy={m.busy}
            width={width}
            height={height}
          />
        );
      case "none":
        break;
    }
    if (ui.view === "diff" && ui.diff) return <DiffView diff={ui.diff} width={width} height={height} />;
    if (ui.view === "phases") return <PhasesView width={width} height={height} />;
    return (
      <AgentsView
        layout={lay}
        agents={visible}
        total={agents.length}
        loaded={entities.loaded}
        selectedId={selectedId}
        listTop={topRef.current}
        needs={needs}
        now={now}
        pane={ui.pane}
        filter={ui.filter.text}
        store={feed.output}
        selected={selected}
        raw={ui.raw}
        scroll={ui.scroll}
      />
    );
  })();

  return (
    <Box flexDirection="column" width={term.columns} height={term.rows} overflow="hidden">
      <Header workspace={deps.workspace} total={agents.length} running={running} needYou={needs.size} view={ui.view} width={term.columns} />
      {banner ? <Banner text={banner} width={term.columns} /> : null}
      {main}
      {ui.filter.editing ? <FilterBar text={ui.filter.text} width={term.columns} /> : null}
      <StatusBar status={ui.status} hint={hintLine(keyContext(ui))} width={term.columns} />
    </Box>
  );
}
