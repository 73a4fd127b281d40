import { TroupeError } from "../errors.ts";
import type { ReviewComment, ReviewSide } from "../protocol/review.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { oneLine } from "./format.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: `troupe review AGENT [--json]
troupe review AGENT --comment FILE:LINE TEXT [--section committed|uncommitted] [--send] [--json]
troupe review AGENT --comment FILE:LINE=TEXT ... [--section committed|uncommitted] [--send] [--json]
troupe review AGENT --delete ID [--json]
troupe review AGENT --send [--message TEXT] [--json]`,
    intro: `  the person's review of an agent's diff (d in the dashboard): comments on its lines, kept by the
  daemon until sent to the agent as one message (resuming it when it is done; a running Claude agent
  takes it in its run, others through their inbox or in their next run)`,
    flags: {
      comment: { type: "string", multiple: true, arg: "FILE:LINE", help: "comment TEXT on that line of the agent's diff (FILE:-LINE: a removed line, by its old number);\nFILE:LINE=TEXT carries its text, as many as you like" },
      section: { type: "string", arg: "WHICH", help: "the line in the committed or the uncommitted change (default: uncommitted first)" },
      delete: { type: "string", arg: "ID", help: "drop a pending comment (rc_N)" },
      send: { type: "boolean", help: "send every pending comment to the agent as one message" },
      message: { type: "string", arg: "TEXT", help: "with --send: a word ahead of the comments" },
      ...REMOTE_FLAG,
    },
    notes: "  a comment on a line the diff does not show, or an agent that does not exist, is refused in one line;\n  the comments of one command are added together, or none of them",
  },
  run,
);

type Place = { file: string; side: ReviewSide; line: number };

/** `FILE:LINE` (a new-side line) or `FILE:-LINE` (a removed one), the file may itself hold colons; with `=TEXT`, the comment's text. */
function parsePlace(arg: string): Place & { text?: string } {
  const m = /^(.+?):(-?)(\d{1,9})=([\s\S]*)$/.exec(arg) ?? /^(.+):(-?)(\d{1,9})$/.exec(arg);
  if (!m || Number(m[3]) === 0) throw new TroupeError("usage", `--comment takes FILE:LINE or FILE:LINE=TEXT (FILE:-LINE for a removed line), not '${arg}'`);
  return { file: m[1]!, side: m[2] ? "old" : "new", line: Number(m[3]), ...(m[4] !== undefined && { text: m[4] }) };
}

/** The comments the arguments make: each `--comment` with its own `=TEXT`, or one with the TEXT after it. */
function commentsOf(args: readonly string[], rest: readonly string[]): (Place & { text: string })[] {
  const places = args.map(parsePlace);
  const bare = places.filter((p) => p.text === undefined);
  if (bare.length && (places.length > 1 || !rest.length)) throw new TroupeError("usage", "--comment FILE:LINE takes its TEXT after it (one comment), or FILE:LINE=TEXT each");
  if (!bare.length && rest.length) throw new TroupeError("usage", `review takes one AGENT; '${rest[0]}' is extra (FILE:LINE=TEXT carries its text)`);
  return places.map((p) => ({ file: p.file, side: p.side, line: p.line, text: p.text ?? rest.join(" ") })).map((c) => {
    if (!c.text.trim()) throw new TroupeError("usage", `the comment on ${c.file}:${c.side === "old" ? "-" : ""}${c.line} needs its TEXT`);
    return c;
  });
}

/** Where a comment is, as the agent's diff is now: `file:12`, `file:14 (moved from 12)`, `file:12 (changed since)`. */
function placeNow(c: ReviewComment): string {
  const mark = c.side === "old" ? "-" : "";
  if (c.state === "changed" || !c.at) return `${c.file}:${mark}${c.line} (changed since)`;
  return c.at.line === c.line ? `${c.file}:${mark}${c.line}` : `${c.file}:${mark}${c.at.line} (moved from ${mark}${c.line})`;
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...rest] = positionals;
  if (!ref) throw new TroupeError("usage", "review needs an AGENT (id or name)");
  const commented = values.comment ?? [];
  const actions = [commented.length > 0, values.delete !== undefined, values.send === true].filter(Boolean).length;
  if (!commented.length && rest.length) throw new TroupeError("usage", `review takes one AGENT; TEXT goes with --comment FILE:LINE`);
  if (commented.length && values.delete !== undefined) throw new TroupeError("usage", "review takes --comment or --delete, not both");
  if (values.message !== undefined && !values.send) throw new TroupeError("usage", "--message goes with --send");
  if (values.section !== undefined && values.section !== "committed" && values.section !== "uncommitted") throw new TroupeError("usage", `--section takes committed or uncommitted, not '${values.section}'`);
  if (values.section !== undefined && !commented.length) throw new TroupeError("usage", "--section goes with --comment");
  const comments = commentsOf(commented, rest);
  const client = await commandClient(values.workspace, values.remote);
  const out: Record<string, unknown> = {};
  const made: ReviewComment[] = [];
  if (comments.length) {
    const section = values.section as "committed" | "uncommitted" | undefined;
    // one request, one reading of the diff however many they are: all are added, or none (the first refused says why)
    made.push(...(await client.addReviewComments(ref, { comments: comments.map((place) => ({ ...place, ...(section && { section }) })) })));
    if (!values.json) stdout.write(made.map((c) => `${c.id} on ${placeNow(c)}\n`).join(""));
  }
  if (made.length) out.comments = made;
  if (values.delete !== undefined) {
    await client.deleteReviewComment(values.delete);
    out.deleted = values.delete;
    if (!values.json) stdout.write(`deleted ${values.delete}\n`);
  }
  if (values.send) {
    const sent = await client.sendReview(ref, values.message === undefined ? {} : { message: values.message });
    out.sent = sent;
    if (!values.json) stdout.write(`${sent.comments} comment${sent.comments === 1 ? "" : "s"} sent as ${sent.message.id}: ${sent.note}\n`);
  }
  if (actions === 0) {
    const review = await client.review(ref);
    if (values.json) return printJson(review).then(() => 0);
    if (!review.comments.length) stdout.write(`no pending review of ${review.agentName}\n`);
    else stdout.write(review.comments.map((c) => `${c.id}  ${placeNow(c)}  ${oneLine(c.text, 80)}\n`).join(""));
    return 0;
  }
  if (values.json) await printJson(out);
  return 0;
}
