import type { Agent } from "../../protocol/entities.ts";
import { formatCost } from "../../output/lines.ts";
import { sanitize } from "../../output/sanitize.ts";
import { agentElapsed, formatElapsed } from "../../ui/agents/elapsed.ts";
import { NEEDS_GROUP, type ListIndex } from "../../ui/agents/list-index.ts";
import { hasQuestions, needsPerson } from "../../ui/mirror/entities-state.ts";
import type { MirrorView } from "../../ui/mirror/daemon-mirror.ts";

interface Props {
  index: ListIndex;
  view: MirrorView;
  now: number;
  selected: string | null;
  onSelect: (id: string) => void;
}

/** What an agent is at, in a few words: its question, its error, else its prompt's first line. */
function what(a: Agent): string {
  if (hasQuestions(a)) return `asks: ${a.questions![0]!.question}`;
  if (a.status === "failed" && a.error) return a.error;
  if (a.result) return a.result;
  return (a.prompt ?? a.command ?? "").split("\n")[0] ?? "";
}

function Row({ a, view, now, selected, onSelect }: { a: Agent } & Omit<Props, "index">) {
  const needs = needsPerson(a, view.entities);
  return (
    <li>
      <button type="button" className={`row${selected === a.id ? " sel" : ""}${needs ? " needs" : ""}`} onClick={() => onSelect(a.id)} data-agent={a.name}>
        <span className="name">{a.name}</span>
        <span className={`status st-${a.status}`}>{a.status}</span>
        <span className="age">{formatElapsed(agentElapsed(a, now))}</span>
        <span className="cost">{a.costUsd ? formatCost(a.costUsd) : ""}</span>
        <span className="what">{sanitize(what(a))}</span>
      </button>
    </li>
  );
}

/**
 * The agents in the dashboard's order and groups (ListIndex: those that need the person first,
 * then a header over each source's), one row each: name, status, age, cost, what it is at.
 */
export function AgentList(props: Props) {
  const { index, view } = props;
  const rows = index.rows(0, index.rowCount);
  const groups = view.sources?.list ?? [];
  if (!view.entities.loaded) return <p className="empty">Loading…</p>;
  if (!index.length) return <p className="empty">No agents yet. Start one with + New.</p>;
  return (
    <ul className={`agents${props.selected ? " narrow" : ""}`}>
      {rows.map((r) =>
        r.kind === "header" ? (
          <li key={`g${r.group}`} className="group">
            {r.group === NEEDS_GROUP ? "Needs you" : (groups[r.group]?.title ?? "")}
          </li>
        ) : (
          <Row key={r.agent.id} a={r.agent} {...props} />
        ),
      )}
    </ul>
  );
}
