import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgeFor } from "../../src/publish/forge.ts";

// a PATH with no gh on it: the API is the way, and which token it takes is what is tested
const empty = mkdtempSync(join(tmpdir(), "troupe-forge-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const env = (over: Record<string, string> = {}) => ({ PATH: empty, HOME: empty, ...over });
const github = { host: "github.com", owner: "acme", repo: "app" };
const ghe = { host: "ghe.example.com", owner: "team", repo: "app" };

test("without gh: GH_TOKEN, then GITHUB_TOKEN, then the config's token; the API of the host unless the config names one", async () => {
  expect(await forgeFor(github, env({ GH_TOKEN: "a", GITHUB_TOKEN: "b" }), { token: "c" })).toEqual({ via: "api", repo: github, api: { baseUrl: "https://api.github.com", token: "a" } });
  expect(await forgeFor(github, env({ GITHUB_TOKEN: "b" }), { token: "c" })).toMatchObject({ api: { token: "b" } });
  expect(await forgeFor(github, env(), { token: "c", apiUrl: "http://127.0.0.1:9" })).toMatchObject({ api: { baseUrl: "http://127.0.0.1:9", token: "c" } });
  expect(await forgeFor(ghe, env({ GH_ENTERPRISE_TOKEN: "e" }), { host: "ghe.example.com" })).toMatchObject({ api: { baseUrl: "https://ghe.example.com/api/v3", token: "e" } });
  expect(await forgeFor(ghe, env(), { host: "GHE.example.com", apiUrl: "https://ghe.example.com/api/v3", token: "t" })).toMatchObject({ api: { token: "t" } });
  // github.com under its other names
  expect(await forgeFor({ ...github, host: "ssh.github.com" }, env({ GH_TOKEN: "a" }), undefined)).toMatchObject({ repo: github, api: { baseUrl: "https://api.github.com" } });
  // an Enterprise token is not sent to github.com
  await expect(forgeFor(github, env({ GH_ENTERPRISE_TOKEN: "e" }), undefined)).rejects.toMatchObject({ code: "no_credentials" });
});

test("a host the config does not name gets no token: GitLab with GH_TOKEN set, github.com's token and apiUrl kept from an Enterprise server's", async () => {
  const gitlab = { host: "gitlab.com", owner: "acme", repo: "app" };
  await expect(forgeFor(gitlab, env({ GH_TOKEN: "a", GITHUB_TOKEN: "b", GH_ENTERPRISE_TOKEN: "e" }), { token: "c" })).rejects.toThrow(
    "gitlab.com is not github.com and gh is not logged in to it: for a GitHub Enterprise server, set github.host (and github.apiUrl) in the user config; no token goes to a host not named there",
  );
  // a config for an Enterprise server gives github.com neither its token nor its API
  await expect(forgeFor(github, env(), { host: "ghe.example.com", apiUrl: "https://ghe.example.com/api/v3", token: "t" })).rejects.toMatchObject({ code: "no_credentials" });
  expect(await forgeFor(github, env({ GH_TOKEN: "a" }), { host: "ghe.example.com", apiUrl: "https://ghe.example.com/api/v3" })).toMatchObject({ api: { baseUrl: "https://api.github.com", token: "a" } });
});

test("no gh and no token: no_credentials, one line naming both ways", async () => {
  await expect(forgeFor(github, env(), {})).rejects.toThrow(
    "no GitHub credentials for github.com: gh is not installed or not logged in ('gh auth login'), and no token is given (GH_TOKEN, or github.token in the user config)",
  );
});
