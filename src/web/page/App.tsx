import { useEffect, useMemo, useRef, useState } from "react";
import { useMirror } from "../../ui/mirror/useMirror.ts";
import { listIndex, type ListIndex } from "../../ui/agents/list-index.ts";
import { AgentList } from "./AgentList.tsx";
import { AgentView } from "./AgentView.tsx";
import { Banners } from "./Banners.tsx";
import { NewAgent } from "./NewAgent.tsx";
import { WorkView } from "./WorkView.tsx";
import type { Notifier } from "./notify.ts";
import type { Followed } from "./sources.ts";

type Screen = "agents" | "work" | "new";

/** The clock the rows' ages read, a tick a second while the page is in front. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/**
 * The page: the agents as the dashboard lists them (those that need the person first, then each
 * source's), one agent's output and what it waits for, the work to approve, a new agent. On a
 * phone one screen at a time; on a desktop the list beside the agent.
 */
export function App({ followed, notify }: { followed: Followed; notify: Notifier }) {
  const view = useMirror(followed.mirror);
  const now = useNow();
  const [screen, setScreen] = useState<Screen>("agents");
  const [selected, setSelected] = useState<string | null>(null);
  const [notifyState, setNotifyState] = useState(notify.state());
  const prev = useRef<ListIndex | null>(null);
  const index = useMemo(() => (prev.current = listIndex(prev.current, view.entities, "", view.sources ?? null)), [view.entities, view.sources]);
  const agent = selected ? (view.entities.agents[selected] ?? null) : null;
  const proposals = Object.values(view.entities.work.phases).filter((p) => p.status === "proposed").length + Object.values(view.entities.work.tasks).filter((t) => t.status === "proposed").length;
  const tab = (s: Screen, label: string) => (
    <button type="button" className={screen === s ? "tab on" : "tab"} onClick={() => setScreen(s)}>
      {label}
    </button>
  );
  return (
    <div className={`app${agent && screen === "agents" ? " has-agent" : ""}`}>
      <header className="top">
        <strong>troupe</strong>
        <nav>
          {tab("agents", "Agents")}
          {tab("work", proposals ? `Work (${proposals})` : "Work")}
          {tab("new", "+ New")}
        </nav>
        {notifyState === "default" && (
          <button type="button" className="tab" onClick={() => void notify.ask().then(() => setNotifyState(notify.state()))}>
            Notify
          </button>
        )}
      </header>
      <Banners view={view} />
      {screen === "agents" && (
        <main className="split">
          <AgentList index={index} view={view} now={now} selected={selected} onSelect={setSelected} />
          {agent && <AgentView key={agent.id} agent={agent} view={view} followed={followed} now={now} onBack={() => setSelected(null)} />}
        </main>
      )}
      {screen === "work" && <WorkView view={view} client={followed.client} />}
      {screen === "new" && (
        <NewAgent
          followed={followed}
          onStarted={(id) => {
            setSelected(id);
            setScreen("agents");
          }}
        />
      )}
    </div>
  );
}
