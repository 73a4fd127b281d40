import { afterAll, expect, test } from "bun:test";
import { createPull, findOpenPull } from "../../src/publish/github-api.ts";

const seen: string[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const u = new URL(req.url);
    seen.push(`${req.method} ${u.pathname}${u.search} ${req.headers.get("authorization")}`);
    if (req.headers.get("authorization") !== "Bearer good") return Response.json({ message: "Bad credentials" }, { status: 401 });
    if (u.pathname.startsWith("/repos/acme/gone/")) return Response.json({ message: "Not Found" }, { status: 404 });
    if (req.method === "GET") return Response.json([{ html_url: "https://github.com/acme/app/pull/3", number: 3, title: "x" }]);
    return Response.json({ message: "Validation Failed", errors: [{ message: "No commits between main and troupe/x" }] }, { status: 422 });
  },
});
afterAll(() => void server.stop(true));
const api = (token: string) => ({ baseUrl: `http://127.0.0.1:${server.port}/`, token });
const repo = (name: string) => ({ host: "github.com", owner: "acme", repo: name });
const pull = { title: "t", body: "b", head: "troupe/x", base: "main", draft: false };

test("the open pull request of a branch: asked by head=owner:branch, state open, with the token", async () => {
  expect(await findOpenPull(api("good"), repo("app"), "troupe/x")).toEqual({ url: "https://github.com/acme/app/pull/3", number: 3 });
  expect(seen.at(-1)).toBe("GET /repos/acme/app/pulls?head=acme%3Atroupe%2Fx&state=open Bearer good");
});

test("GitHub's refusals are one line each: a bad token, a repository not there, a 422's own words", async () => {
  await expect(findOpenPull(api("bad"), repo("app"), "troupe/x")).rejects.toMatchObject({ code: "no_credentials" });
  await expect(findOpenPull(api("good"), repo("gone"), "troupe/x")).rejects.toThrow("GitHub answered 404 to GET /repos/acme/gone/pulls");
  await expect(createPull(api("good"), repo("app"), pull)).rejects.toThrow("GitHub answered 422 to POST /repos/acme/app/pulls: Validation Failed: No commits between main and troupe/x");
});

test("a server that cannot be reached is pull_request_failed naming it", async () => {
  await expect(findOpenPull({ baseUrl: "http://127.0.0.1:1", token: "x" }, repo("app"), "b")).rejects.toMatchObject({ code: "pull_request_failed" });
});
