import type { Agent, Conversation } from "../protocol/entities.ts";
import { failureLine, failureShows } from "../protocol/failure.ts";
import { LS_GLYPHS, treePrefix, treeRows } from "../output/tree.ts";
import { sanitize } from "../output/sanitize.ts";

/**
 * Plain-text table: columns padded to their widest cell, the last one left ragged. A cell is shown
 * on its row (a newline in a name or a file cannot start a row of its own) and sanitised before
 * it is measured, so what an agent wrote neither reaches the terminal as an escape nor skews the
 * columns (the sink sanitises the whole output again: src/cli/streams.ts).
 */
export function table(header: string[], rawRows: string[][]): string {
  const rows = rawRows.map((r) => r.map(cell));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 86400)}d`;
}

function cell(text: string): string {
  return sanitize(text.replace(/[\t\n\v\f\r]+/g, " "));
}

/** `text` on one line of at most `max` columns: whitespace runs as one space, sanitised. */
export function oneLine(text: string | null, max = 60): string {
  if (!text) return "";
  const flat = sanitize(text.replace(/\s+/g, " ")).trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/**
 * The agents as a table, each worker indented under the agent that started it (`ascii`: no
 * box-drawing characters); a PORTS column once one of them holds ports (the config's `ports`), a PR
 * column once one has a pull request (troupe pr).
 */
export function agentRows(agents: Agent[], ascii = false): string {
  const glyphs = LS_GLYPHS[ascii ? "ascii" : "unicode"];
  const prs = agents.some((a) => a.prUrl);
  const ports = agents.some((a) => a.ports.length);
  return table(
    ["ID", "NAME", "PROVIDER", "STATUS", "PID", "AGE", "COST", ...(ports ? ["PORTS"] : []), ...(prs ? ["PR"] : []), "DETAIL"],
    treeRows(agents).map((row) => {
      const a = row.item;
      return [
        a.id,
        treePrefix(row.lasts, glyphs) + a.name,
        a.provider,
        // a pending permission request is the person's to answer, whatever the status says
        a.pendingPermissions > 0 ? `! ${a.status} (permission: troupe permissions)` : a.uncommitted ? `${a.status} (uncommitted)` : a.status,
        a.pid === null ? "-" : String(a.pid),
        ago(a.createdAt),
        a.costUsd === null ? "-" : `$${a.costUsd.toFixed(2)}`,
        ...(ports ? [a.ports.join(",") || "-"] : []),
        ...(prs ? [a.prUrl ?? "-"] : []),
        oneLine((failureShows(a) ? failureLine(a.failure, a.retryAt, Date.now(), a.status) : null) ?? a.error ?? (a.questions ? a.questions.map((q) => q.question).join(" | ") : null) ?? a.result ?? a.prompt ?? a.command),
      ];
    }),
  );
}

export function conversationRows(convs: Conversation[]): string {
  return table(
    ["ID", "FROM", "TO", "STATUS", "AGE", "QUESTION / ANSWER"],
    convs.map((c) => [c.id, c.fromName, c.toName, c.status, ago(c.createdAt), oneLine(c.answer ? `${c.question} → ${c.answer}` : c.question)]),
  );
}
