import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Inbox } from "../../src/acp/inbox.ts";
import { closeStream, lineState, writeLine } from "../../src/agents/sessions/input-stream.ts";
import { inputLine } from "../../providers/acp/lines.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const folder = () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-inbox-"));
  mkdirSync(join(dir, "sent"));
  return dir;
};

test("the lines the daemon wrote are taken once, oldest first, each moved to sent/ (fed, as the daemon reads it)", () => {
  const d = folder();
  writeLine(d, 2, inputLine("second", "b"));
  writeLine(d, 1, inputLine("first", "a"));
  const inbox = new Inbox(d);
  expect(inbox.take()).toEqual([{ text: "first", id: "a" }, { text: "second", id: "b" }]);
  expect(lineState(d, 1)).toBe("fed");
  expect(inbox.take()).toEqual([]);
  inbox.close();
});

test("a line someone else claimed first (the agent's own listen) is not the runner's", () => {
  const d = folder();
  writeLine(d, 1, inputLine("held question", "q"));
  const name = "000000000001.line";
  renameSync(join(d, name), join(d, `${name}.taken`));
  const inbox = new Inbox(d);
  expect(inbox.take()).toEqual([]);
  inbox.close();
});

test("closed once the daemon closes the stream, or the folder is gone; a change wakes the wait", async () => {
  const d = folder();
  const inbox = new Inbox(d);
  expect(inbox.closed()).toBe(false);
  const woke = inbox.changed();
  writeLine(d, 1, inputLine("m"));
  await woke;
  expect(inbox.take()).toEqual([{ text: "m" }]);
  closeStream(d);
  expect(inbox.closed()).toBe(true);
  inbox.close();
  rmSync(d, { recursive: true });
  expect(existsSync(d)).toBe(false);
  expect(new Inbox(d).closed()).toBe(true);
});
