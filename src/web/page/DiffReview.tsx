import { useEffect, useState } from "react";
import type { Agent } from "../../protocol/entities.ts";
import type { DiffLine, ReviewComment } from "../../protocol/review.ts";
import { sanitize } from "../../output/sanitize.ts";
import type { Followed } from "./sources.ts";
import { useAction } from "./useAction.ts";

const CODE = new Set(["add", "del", "context"]);

/** Where a comment on a line of code points: its number on the side it is on (a removed line counts on the old side). */
function anchor(l: DiffLine): { side: "new" | "old"; line: number } | null {
  if (!CODE.has(l.kind) || !l.file) return null;
  if (l.kind === "del") return l.old ? { side: "old", line: l.old } : null;
  return l.new ? { side: "new", line: l.new } : null;
}

/**
 * The agent's branch as its daemon diffs it, and the person's review of it (issue 23's): a tap on
 * a line of code comments on it, and the comments go to the agent as one message.
 */
export function DiffReview({ agent, followed }: { agent: Agent; followed: Followed }) {
  const [lines, setLines] = useState<DiffLine[] | null>(null);
  const [comments, setComments] = useState<ReviewComment[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const [text, setText] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const act = useAction();
  const load = () => act.run(async () => {
    const [diff, review] = await Promise.all([followed.client.agentDiff(agent.id), followed.client.review(agent.id)]);
    setLines(diff);
    setComments(review.comments);
  });
  useEffect(load, [agent.id]);
  if (!lines) return <p className="output">{act.error ?? "loading the diff…"}</p>;
  const at = (l: DiffLine) => {
    const a = anchor(l);
    return a ? comments.filter((c) => c.file === l.file && c.side === a.side && c.line === a.line) : [];
  };
  const comment = (l: DiffLine) => {
    const a = anchor(l)!;
    act.run(() => followed.client.addReviewComment(agent.id, { file: l.file!, line: a.line, side: a.side, ...(l.section && { section: l.section }), code: l.text.slice(1), text }), () => {
      setOpen(null);
      setText("");
      load();
    });
  };
  return (
    <div className="diff" data-testid="diff">
      {!lines.length && <p>No changes on its branch yet.</p>}
      {lines.map((l, i) => (
        <div key={i}>
          <div className={`d-${l.kind}`} onClick={() => anchor(l) && setOpen(open === i ? null : i)}>
            {sanitize(l.text) || " "}
          </div>
          {at(l).map((c) => (
            <p key={c.id} className="comment">
              {c.text}
            </p>
          ))}
          {open === i && (
            <form className="card" onSubmit={(e) => (e.preventDefault(), comment(l))}>
              <textarea placeholder="a comment on this line" value={text} onChange={(e) => setText(e.target.value)} required autoFocus />
              <button type="submit" disabled={act.busy}>
                Comment
              </button>
            </form>
          )}
        </div>
      ))}
      {comments.length > 0 && (
        <button type="button" disabled={act.busy} onClick={() => act.run(async () => setSent((await followed.client.sendReview(agent.id, {})).delivery), load)}>
          Send {comments.length} comment{comments.length > 1 ? "s" : ""} to {agent.name}
        </button>
      )}
      {sent && <p className="said">review sent ({sent})</p>}
      {act.error && <p className="err">{act.error}</p>}
    </div>
  );
}
