/**
 * A review as the person does it: the compiled dashboard in tmux, the diff of a real Claude Code
 * agent (offline, a scripted Messages API), two comments on two lines with `c`, sent with `S`;
 * the agent is resumed with them and the model sees one message naming both places.
 */
import { describe, expect, test } from "bun:test";
import { waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { bash, findInHistory, text, turnIndex, userTexts } from "../support/fake-anthropic.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";

const { scripts, server, sandbox, ended } = useClaudeTroupe();

/** Moves the diff view's cursor down, a line at a time (each step waits for its frame), until its title names `place`. */
async function cursorTo(term: Terminal, place: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    // with its escapes: the cursor's line is drawn inverse, which plain text does not show
    const before = term.tmux("capture-pane", "-p", "-e", "-t", "t");
    if (before.includes(`· ${place} `)) return;
    term.keys("j");
    // a key that came before the view took keys moves nothing: the loop presses it again
    await waitFor("the cursor to move", () => term.tmux("capture-pane", "-p", "-e", "-t", "t") !== before || undefined, 5_000).catch(() => undefined);
  }
  throw new Error(`the cursor never reached ${place}:\n${term.screen()}`);
}

async function commentOn(term: Terminal, place: string, words: string): Promise<void> {
  await cursorTo(term, place);
  term.keys("c");
  await term.waitFor(`Comment on ${place}`);
  term.type(words);
  await term.waitFor(words);
  term.keys("Enter");
  await term.waitFor(`commented on ${place}`);
}

describe.skipIf(!HAVE_TMUX)("a review from the dashboard reaches a Claude Code agent", () => {
  test("two comments on two lines, sent with S, resume the agent with one message naming both", async () => {
    const sb = sandbox();
    scripts.set("coder", (req) => {
      if (findInHistory(req, /Review of your diff by the person/)) return [[bash(`troupe signal done --result "addressed the review"`)]][turnIndex(req)] ?? [text("Addressed.")];
      return (
        [
          [bash(`printf 'one\\ntwo\\nthree\\nfour\\nfive\\n' > app.txt && git add app.txt && git commit -qm "add app.txt" && echo committed`)],
          [bash(`troupe signal done --result "wrote app.txt"`)],
        ][turnIndex(req)] ?? [text("Done.")]
      );
    });
    await sb.json(["spawn", "--provider", "claude", "--name", "coder", "--prompt", "Write app.txt and commit it.", "--json"]);
    expect(await ended("coder")).toMatchObject({ status: "done", session: 1, result: "wrote app.txt" });

    const term = new Terminal(sb);
    await term.openDashboard();
    await term.waitFor(/coder\s+done/);
    term.keys("d");
    await term.waitFor("...troupe/coder");
    await term.waitFor("+five");
    await commentOn(term, "app.txt:2", "two is a magic number: name it");
    // inline, under its line
    const shown = await term.waitFor("┃ two is a magic number");
    const rows = shown.split("\n");
    expect(rows[rows.findIndex((r) => r.startsWith("+two")) + 1]).toContain("┃ two is a magic number: name it");
    await commentOn(term, "app.txt:4", "four should come from the config");
    await term.waitFor("2 comments (S sends)");
    term.keys("S");
    await term.waitFor("2 comments sent: resumed coder with the review");

    const done = await waitFor("coder's second run done", async () => {
      const a = (await sb.json<{ name: string; status: string; session: number; result: string | null }[]>(["ls", "--json"])).find((x) => x.name === "coder");
      return a?.session === 2 && a.status === "done" ? a : undefined;
    }, 60_000);
    expect(done.result).toBe("addressed the review");
    // what the model received in the resumed run: one user message with both places, the code and the words
    const review = server
      .mainRequests()
      .flatMap((r) => userTexts(r))
      .find((t) => t.includes("Review of your diff by the person"));
    expect(review).toBeDefined();
    expect(review).toContain("2 comments on lines of your work");
    expect(review).toContain("1. app.txt:2\n   > two\n   two is a magic number: name it");
    expect(review).toContain("2. app.txt:4\n   > four\n   four should come from the config");
    // the review is over: nothing pending is left
    expect((await sb.json<{ comments: unknown[] }>(["review", "coder", "--json"])).comments).toEqual([]);
    term.close();
  }, 150_000);
});
