import { useState } from "react";
import type { Agent } from "../../protocol/entities.ts";
import { STATUS } from "../../protocol/status.ts";
import { formatCost } from "../../output/lines.ts";
import { sanitize, sanitizeBlock } from "../../output/sanitize.ts";
import { agentElapsed, formatElapsed } from "../../ui/agents/elapsed.ts";
import { conversationsFrom, messagesFrom } from "../../ui/mirror/entities-state.ts";
import { requestLines } from "../../ui/mirror/request-lines.ts";
import type { MirrorView } from "../../ui/mirror/daemon-mirror.ts";
import { useAgentOutput } from "../../ui/output/useAgentOutput.ts";
import { DiffReview } from "./DiffReview.tsx";
import type { Followed } from "./sources.ts";
import { Submit } from "./Submit.tsx";
import { useAction } from "./useAction.ts";

interface Props {
  agent: Agent;
  view: MirrorView;
  followed: Followed;
  now: number;
  onBack: () => void;
}

/** Lines of output kept on the page: the newest, as the dashboard's pane shows them. */
const SHOWN_LINES = 400;

function Output({ agent, followed }: Pick<Props, "agent" | "followed">) {
  const buf = useAgentOutput(followed.mirror.output, agent);
  if (!buf || buf.state === "loading") return <pre className="output">loading…</pre>;
  if (buf.state === "error") return <pre className="output">could not load the output: {buf.error}</pre>;
  const src = buf.rendered;
  const from = Math.max(src.base, src.end - SHOWN_LINES);
  const lines = [];
  for (let i = from; i < src.end; i++) {
    const l = src.at(i);
    // text only: React escapes it, and the renderer took every escape sequence out (sanitize)
    lines.push(
      <div key={i} className={`l-${l.kind}`}>
        {l.text || " "}
      </div>,
    );
  }
  return (
    <div className="output" data-testid="output">
      {lines}
    </div>
  );
}

/** Its questions (signal questions), answered as one resume. */
function Questions({ agent, followed }: Pick<Props, "agent" | "followed">) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const act = useAction();
  const qs = agent.questions ?? [];
  if (agent.status !== "waiting" || !qs.length) return null;
  return (
    <form className="card ask" onSubmit={(e) => (e.preventDefault(), act.run(() => followed.client.resume(agent.id, { answers: qs.map((q) => ({ id: q.id, answer: answers[q.id] ?? "" })) })))}>
      {qs.map((q) => (
        <label key={q.id}>
          <span className="q">{sanitizeBlock(q.question)}</span>
          <textarea value={answers[q.id] ?? ""} onChange={(e) => setAnswers({ ...answers, [q.id]: e.target.value })} required />
        </label>
      ))}
      <Submit act={act} label="Answer" />
    </form>
  );
}

/** A question it asked the person (troupe ask): answered where it waits. */
function Conversation({ id, question, followed }: { id: string; question: string; followed: Followed }) {
  const [text, setText] = useState("");
  const act = useAction();
  return (
    <form className="card ask" onSubmit={(e) => (e.preventDefault(), act.run(() => followed.client.answer(id, { answer: text })))}>
      <label>
        <span className="q">{sanitizeBlock(question)}</span>
        <textarea value={text} onChange={(e) => setText(e.target.value)} required />
      </label>
      <Submit act={act} label="Answer" />
    </form>
  );
}

/** A tool call waiting for the person: what it would run, allow or deny. */
function Permission({ req, cwd, followed }: { req: MirrorView["entities"]["permissions"]["pending"][string]; cwd: string; followed: Followed }) {
  const act = useAction();
  return (
    <div className="card perm" data-permission={req.id}>
      <p className="q">wants to use {sanitize(req.toolName)}</p>
      <pre className="req">{requestLines(req, cwd).map((l) => `${sanitize(l.text)}\n`)}</pre>
      <div className="actions">
        <button type="button" disabled={act.busy} onClick={() => act.run(() => followed.client.decidePermission(req.id, { behavior: "allow" }))}>
          Allow
        </button>
        <button type="button" className="deny" disabled={act.busy} onClick={() => act.run(() => followed.client.decidePermission(req.id, { behavior: "deny", reason: "denied from the web page" }))}>
          Deny
        </button>
      </div>
      {act.error && <p className="err">{act.error}</p>}
    </div>
  );
}

/** A message to it (delivered to a running agent, or the next resume), or a resume with it. */
function Message({ agent, followed }: Pick<Props, "agent" | "followed">) {
  const [text, setText] = useState("");
  const act = useAction();
  const resumable = STATUS[agent.status].resumable;
  const send = () => act.run(() => (resumable ? followed.client.resume(agent.id, { message: text }) : followed.client.send({ to: agent.id, text })), () => setText(""));
  return (
    <form className="card msg" onSubmit={(e) => (e.preventDefault(), send())}>
      <textarea placeholder={resumable ? `resume ${agent.name} with a message` : `message ${agent.name}`} value={text} onChange={(e) => setText(e.target.value)} required />
      <Submit act={act} label={resumable ? "Resume" : "Send"} />
    </form>
  );
}

/** A message it sent the person, until the person marks it read (it keeps the agent among those that need the person). */
function Said({ id, text, followed }: { id: string; text: string; followed: Followed }) {
  const act = useAction();
  return (
    <div className="card said">
      <p>{sanitizeBlock(text)}</p>
      <button type="button" disabled={act.busy} onClick={() => act.run(() => followed.client.markRead(id))}>
        Mark read
      </button>
      {act.error && <p className="err">{act.error}</p>}
    </div>
  );
}

/** One agent: what it waits for from the person first, then its output, then what the person can tell it. */
export function AgentView({ agent, view, followed, now, onBack }: Props) {
  const act = useAction();
  const [diff, setDiff] = useState(false);
  const perms = Object.values(view.entities.permissions.pending).filter((p) => p.agentId === agent.id);
  const asked = conversationsFrom(view.entities, agent.id);
  const said = messagesFrom(view.entities, agent.id);
  return (
    <section className="agent" data-testid="agent">
      <div className="agent-head">
        <button type="button" className="back" onClick={onBack}>
          ‹ Agents
        </button>
        <h2>{agent.name}</h2>
        <span className={`status st-${agent.status}`}>{agent.status}</span>
        <span className="meta">
          {agent.provider} · {formatElapsed(agentElapsed(agent, now))}
          {agent.costUsd ? ` · ${formatCost(agent.costUsd)}` : ""}
        </span>
        <span className="actions">
          {STATUS[agent.status].live && (
            <button type="button" className="deny" disabled={act.busy} onClick={() => act.run(() => followed.client.stop(agent.id))}>
              Stop
            </button>
          )}
          {agent.branch && (
            <button type="button" onClick={() => setDiff(!diff)}>
              {diff ? "Output" : "Diff"}
            </button>
          )}
        </span>
      </div>
      {act.error && <p className="err">{act.error}</p>}
      {perms.map((p) => (
        <Permission key={p.id} req={p} cwd={agent.cwd} followed={followed} />
      ))}
      <Questions agent={agent} followed={followed} />
      {asked.map((c) => (
        <Conversation key={c.id} id={c.id} question={c.question} followed={followed} />
      ))}
      {said.map((m) => (
        <Said key={m.id} id={m.id} text={m.text} followed={followed} />
      ))}
      {diff ? <DiffReview agent={agent} followed={followed} /> : <Output agent={agent} followed={followed} />}
      <Message agent={agent} followed={followed} />
    </section>
  );
}
