import { useState, type ReactNode } from "react";
import type { Phase, Task } from "../../protocol/work.ts";
import type { RoutingClient } from "../../client/routing-client.ts";
import type { MirrorView } from "../../ui/mirror/daemon-mirror.ts";
import { sanitize } from "../../output/sanitize.ts";
import { useAction } from "./useAction.ts";

/** A proposal's two answers: approve it, or reject it with a reason (the agent proposes again when asked to). */
function Decide({ id, client }: { id: string; client: RoutingClient }) {
  const [reason, setReason] = useState("");
  const [rejecting, setRejecting] = useState(false);
  const act = useAction();
  return (
    <div className="actions">
      <button type="button" disabled={act.busy} onClick={() => act.run(() => client.approve({ ids: [id] }))}>
        Approve
      </button>
      {rejecting ? (
        <form onSubmit={(e) => (e.preventDefault(), act.run(() => client.reject(id, { reason, revise: true })))}>
          <input placeholder="why (the agent proposes again)" value={reason} onChange={(e) => setReason(e.target.value)} required />
          <button type="submit" className="deny" disabled={act.busy}>
            Reject
          </button>
        </form>
      ) : (
        <button type="button" className="deny" onClick={() => setRejecting(true)}>
          Reject…
        </button>
      )}
      {act.error && <p className="err">{act.error}</p>}
    </div>
  );
}

function Item({ item, client, children }: { item: Phase | Task; client: RoutingClient; children?: ReactNode }) {
  return (
    <li className={`work-item${item.status === "proposed" ? " needs" : ""}`} data-work={item.slug}>
      <div>
        <strong>{item.title}</strong> <span className={`status st-${item.status}`}>{item.status}</span>
      </div>
      {item.reason && <p className="err">{item.reason}</p>}
      {item.status === "proposed" && (
        <>
          <details>
            <summary>what it proposes</summary>
            <pre>{sanitize("content" in item ? item.content : item.description)}</pre>
          </details>
          <Decide id={item.id} client={client} />
        </>
      )}
      {children}
    </li>
  );
}

/** The initiatives, their phases and tasks as they stand, proposals first in each with what to decide. */
export function WorkView({ view, client }: { view: MirrorView; client: RoutingClient }) {
  const { initiatives, phases, tasks } = view.entities.work;
  const list = Object.values(initiatives);
  if (!list.length) return <p className="empty">No initiatives. Start one with troupe initiative new.</p>;
  const order = (a: Phase | Task, b: Phase | Task) => Number(b.status === "proposed") - Number(a.status === "proposed") || a.createdAt - b.createdAt;
  return (
    <main className="work">
      {list.map((init) => (
        <section key={init.id}>
          <h2>
            {init.name} <span className={`status st-${init.status}`}>{init.status}</span>
          </h2>
          <ul>
            {Object.values(phases)
              .filter((p) => p.initiativeId === init.id)
              .sort(order)
              .map((p) => (
                <Item key={p.id} item={p} client={client}>
                  <ul>
                    {Object.values(tasks)
                      .filter((t) => t.phaseId === p.id)
                      .sort(order)
                      .map((t) => (
                        <Item key={t.id} item={t} client={client} />
                      ))}
                  </ul>
                </Item>
              ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
