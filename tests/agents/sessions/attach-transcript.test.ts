import { afterEach, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepTranscript, markPath, markTranscript } from "../../../src/agents/sessions/attach-transcript.ts";
import { claude } from "../../../providers/claude/provider.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const assistant = (text: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] }, uuid: "u" });
const bookkeeping = JSON.stringify({ type: "file-history-snapshot", snapshot: {} });

function setup() {
  dir = mkdtempSync(join(tmpdir(), "troupe-transcript-"));
  return { transcript: join(dir, "s.jsonl"), exit: join(dir, "2.exit"), out: join(dir, "2.out") };
}

test("only what the CLI appended after the mark is kept, only lines its parser understands, and a half-written last line is left out", () => {
  const f = setup();
  writeFileSync(f.transcript, `${assistant("before the attach")}\n`);
  markTranscript(f.exit, f.transcript);
  const half = assistant("half").slice(0, 40);
  appendFileSync(f.transcript, `${assistant("said while attached")}\n${bookkeeping}\n${half}`);
  expect(keepTranscript(f.exit, f.out, claude)).toBeNull();
  const out = readFileSync(f.out, "utf8");
  expect(out).toContain("said while attached");
  expect(out).not.toContain("before the attach");
  expect(out).not.toContain("file-history-snapshot");
  expect(out).not.toContain("half");
  // once: the mark goes with the import
  expect(existsSync(markPath(f.exit))).toBe(false);
  expect(keepTranscript(f.exit, f.out, claude)).toBeNull();
  expect(readFileSync(f.out, "utf8")).toBe(out);
});

test("a transcript the CLI creates during the session is kept whole; a missing one is said in the log", () => {
  const f = setup();
  markTranscript(f.exit, f.transcript);
  writeFileSync(f.transcript, `${assistant("first words")}\n`);
  keepTranscript(f.exit, f.out, claude);
  expect(readFileSync(f.out, "utf8")).toContain("first words");
  const g = { ...f, exit: join(dir, "3.exit"), out: join(dir, "3.out"), transcript: join(dir, "none.jsonl") };
  markTranscript(g.exit, g.transcript);
  expect(keepTranscript(g.exit, g.out, claude)).toContain("does not exist");
  expect(readFileSync(g.out, "utf8")).toContain("the CLI's transcript was not kept");
});

test("a FIFO in place of the transcript is refused, never opened", () => {
  const f = setup();
  markTranscript(f.exit, f.transcript);
  Bun.spawnSync(["mkfifo", f.transcript]);
  expect(keepTranscript(f.exit, f.out, claude)).toContain("not a regular file");
});
