import { Box, Text } from "ink";
import { fit } from "../../output/text.ts";
import { sanitize } from "../../output/sanitize.ts";
import { placeOf, sideOf } from "../../protocol/diff-line.ts";
import type { DiffLine, ReviewComment } from "../../protocol/review.ts";
import { PaneTitle } from "../kit/components/PaneTitle.tsx";
import type { DiffState } from "./diff-ui.ts";
import { rowsOf, windowTop, type DiffRow } from "./diff-rows.ts";
import { tint, useTheme, type Colour, type Theme } from "../kit/theme.ts";

export interface DiffViewProps {
  diff: DiffState;
  width: number;
  height: number;
}

function lineColour(l: string): Colour | undefined {
  if (l.startsWith("+++") || l.startsWith("---") || l.startsWith("diff ") || l.startsWith("index ")) return "magenta";
  if (l.startsWith("+")) return "green";
  if (l.startsWith("-")) return "red";
  if (l.startsWith("@@")) return "cyan";
  if (l.startsWith("──")) return "yellow";
  return undefined;
}

/** Rows of the diff a view of `height` shows at most (one is the title). */
export function diffRows(height: number): number {
  return Math.max(1, height - 1);
}

/** A comment's row: its first line of text under its line; where its line went when it is not under it. */
function commentText(c: ReviewComment, placed: boolean, ascii: boolean): string {
  const [first = "", ...more] = c.text.split("\n");
  const where = placed ? "" : `${placeOf(c.file, c.side, c.at?.line ?? c.line)}${c.state === "changed" ? " · changed since" : ""}: `;
  return `  ${ascii ? "|" : "┃"} ${where}${first}${more.length ? ` (+${more.length} line${more.length === 1 ? "" : "s"})` : ""}`;
}

/** `app.ts:12` when the cursor is on a line of code, and how many comments wait to be sent. */
function titleNotes(diff: DiffState, row: DiffRow | undefined): string {
  const l: DiffLine | undefined = row?.kind === "line" ? diff.lines?.[row.index] : undefined;
  const side = l ? sideOf(l) : null;
  const line = l && side ? (side === "new" ? l.new : l.old) : undefined;
  const place = l?.file !== undefined && side && line !== undefined ? ` · ${placeOf(l.file, side, line)}` : "";
  const n = diff.comments?.length ?? 0;
  const review = diff.sending ? " · sending the review…" : n ? ` · ${n} comment${n === 1 ? "" : "s"} (S sends)` : "";
  return place + review;
}

function Row({ row, diff, width, at, theme }: { row: DiffRow; diff: DiffState; width: number; at: boolean; theme: Theme }) {
  if (row.kind === "comment") {
    return (
      <Text color={tint(theme, "yellow")} bold={at} inverse={at} wrap="truncate-end">
        {fit(sanitize(commentText(row.comment, row.placed, theme.ascii)), width)}
      </Text>
    );
  }
  const text = diff.lines![row.index]!.text;
  return (
    <Text color={tint(theme, lineColour(text))} inverse={at} wrap="truncate-end">
      {fit(sanitize(text), width)}
    </Text>
  );
}

/** The agent's branch against its base: a cursor over its lines, review comments under theirs; long lines are cut. */
export function DiffView({ diff, width, height }: DiffViewProps) {
  const theme = useTheme();
  const rows = diffRows(height);
  const all = rowsOf(diff.lines ?? [], diff.comments);
  const top = windowTop(diff.top, diff.cursor, rows, all.length);
  const pos = all.length > rows ? ` · ${top + 1}-${Math.min(all.length, top + rows)} of ${all.length}` : "";
  const body = diff.error ? `✗ ${diff.error}` : diff.lines === null ? "loading the diff…" : all.length === 0 ? "no changes" : null;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PaneTitle text={`${diff.title}${pos}${titleNotes(diff, all[diff.cursor])}   (esc back)`} width={width} focused />
      {body !== null ? (
        <Text color={tint(theme, diff.error ? "red" : undefined)} wrap="truncate-end">{` ${body}`}</Text>
      ) : (
        all.slice(top, top + rows).map((r, i) => <Row key={top + i} row={r} diff={diff} width={width} at={top + i === diff.cursor} theme={theme} />)
      )}
    </Box>
  );
}
