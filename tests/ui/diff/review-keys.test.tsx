import { afterEach, describe, expect, test } from "bun:test";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { KEY, renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

/** An agent's committed diff as git prints it: a file's header, one hunk with a removed, an added and unchanged lines. */
const DIFF = [
  "diff --git a/src/app.ts b/src/app.ts",
  "index 1111111..2222222 100644",
  "--- a/src/app.ts",
  "+++ b/src/app.ts",
  "@@ -1,3 +1,3 @@",
  " const a = 1;",
  "-const b = 2;",
  "+const b = computeB();",
  " export { a, b };",
];

async function openDiff(client: FakeClient, name = "writer") {
  screen = await renderApp(client, { diff: DIFF, rows: 24, columns: 100 });
  await screen.press("d");
  await screen.waitFor(`Diff · ${name}`);
  await screen.waitFor("+const b = computeB();");
  return screen;
}

describe("review in the diff view", () => {
  test("c on a line of code comments on it; the comment shows under its line; S sends the review and resumes the agent", async () => {
    const a = makeAgent({ name: "writer", status: "done", branch: "troupe/writer", baseRef: "main" });
    const client = new FakeClient([a]);
    const s = await openDiff(client);
    // the cursor starts on the file's header: no comment there, and the press says why
    await s.press("c");
    await s.waitFor("c comments on a line of code");
    expect(client.callsOf("addReviewComment")).toHaveLength(0);
    // down to the added line (header, index, ---, +++, @@, context, removed, added)
    await s.press("j", "j", "j", "j", "j", "j", "j");
    await s.waitFor("src/app.ts:2");
    await s.press("c");
    await s.waitFor("Comment on src/app.ts:2");
    await s.type("name the function for what it computes");
    await s.press(KEY.enter);
    await waitFor(() => client.callsOf("addReviewComment").length === 1, () => "comment saved");
    expect(client.callsOf("addReviewComment")[0]).toEqual([a.id, { file: "src/app.ts", line: 2, side: "new", section: "committed", code: "const b = computeB();", text: "name the function for what it computes" }]);
    // inline, right under its line, and counted in the title
    const frame = await s.waitFor("┃ name the function for what it computes");
    const rows = frame.split("\n");
    const at = rows.findIndex((r) => r.includes("+const b = computeB();"));
    expect(rows[at + 1]).toContain("┃ name the function for what it computes");
    await s.waitFor("1 comment (S sends)");
    // a removed line takes a comment too, by its old number
    await s.press("k", "c");
    await s.waitFor("Comment on src/app.ts:-2");
    await s.type("why not keep this?");
    await s.press(KEY.enter);
    await waitFor(() => client.callsOf("addReviewComment").length === 2, () => "second comment saved");
    expect(client.callsOf("addReviewComment")[1]![1]).toMatchObject({ file: "src/app.ts", line: 2, side: "old", code: "const b = 2;" });
    await s.waitFor("2 comments (S sends)");
    await s.press("S");
    await waitFor(() => client.callsOf("sendReview").length === 1, () => "review sent");
    expect(client.callsOf("sendReview")[0]).toEqual([a.id, {}]);
    await s.waitFor("2 comments sent: resumed writer with the review");
    await s.waitForNot("┃ name the function");
    // nothing left to send: S says so instead of sending an empty review
    await s.press("S");
    await s.waitFor("no comments to send");
    expect(client.callsOf("sendReview")).toHaveLength(1);
  });

  test("enter on a comment edits it, x deletes it; a dashboard opened later shows the pending review", async () => {
    const a = makeAgent({ name: "writer", status: "done", branch: "troupe/writer", baseRef: "main" });
    const client = new FakeClient([a]);
    await client.addReviewComment(a.id, { file: "src/app.ts", line: 1, side: "new", section: "committed", code: "const a = 1;", text: "first thought" });
    const s = await openDiff(client);
    // kept by the daemon: shown under its line as the view opens
    await s.waitFor("┃ first thought");
    await s.press("j", "j", "j", "j", "j", "j");
    await s.press(KEY.enter);
    await s.waitFor("Edit the comment on src/app.ts:1");
    await s.press(...Array.from({ length: "first thought".length }, () => KEY.backspace));
    await s.type("second thought");
    await s.press(KEY.enter);
    await waitFor(() => client.callsOf("editReviewComment").length === 1, () => "comment edited");
    await s.waitFor("┃ second thought");
    await s.press("x");
    await waitFor(() => client.callsOf("deleteReviewComment").length === 1, () => "comment deleted");
    await s.waitForNot("┃ second thought");
    expect(client.reviews.get(a.id)).toEqual([]);
  });

  test("the help lists the review keys, one binding each", async () => {
    const a = makeAgent({ name: "writer", branch: "troupe/writer", baseRef: "main" });
    const s = await openDiff(new FakeClient([a]));
    await s.press("?");
    await s.waitFor("Keys");
    // the help scrolls: down to the Diff section
    for (let i = 0; i < 80 && !s.frame().includes("send the review"); i++) await s.press(KEY.down);
    const frame = s.frame();
    expect(frame).toContain("comment on the line under the cursor");
    expect(frame).toMatch(/S +send the review/);
    expect(frame).toContain("edit the comment under the cursor");
    expect(frame).toContain("delete the comment under the cursor");
  });
});
