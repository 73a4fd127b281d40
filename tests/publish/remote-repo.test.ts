import { expect, test } from "bun:test";
import { defaultApiUrl, parseRemoteUrl, remoteRepo } from "../../src/publish/remote-repo.ts";

test("owner and repository from https, ssh, scp-like and git URLs; a path or another shape names none", () => {
  const acme = { host: "github.com", owner: "acme", repo: "widgets" };
  expect(parseRemoteUrl("https://github.com/acme/widgets.git")).toEqual(acme);
  expect(parseRemoteUrl("https://x-access-token:abc@github.com/acme/widgets")).toEqual(acme);
  expect(parseRemoteUrl("https://GitHub.com/acme/widgets/")).toEqual(acme);
  expect(parseRemoteUrl("git@github.com:acme/widgets.git")).toEqual(acme);
  expect(parseRemoteUrl("ssh://git@github.com/acme/widgets.git")).toEqual(acme);
  expect(parseRemoteUrl("ssh://git@ghe.example.com:2222/team/app.git")).toEqual({ host: "ghe.example.com", owner: "team", repo: "app" });
  expect(parseRemoteUrl("git://github.com/acme/widgets.git")).toEqual(acme);
  expect(parseRemoteUrl("/srv/git/widgets.git")).toBeNull();
  expect(parseRemoteUrl("file:///srv/git/acme/widgets.git")).toBeNull();
  expect(parseRemoteUrl("https://gitlab.example.com/group/sub/widgets.git")).toBeNull();
  expect(() => remoteRepo("origin", "/srv/git/widgets.git")).toThrow("git remote 'origin' (/srv/git/widgets.git) names no GitHub repository");
});

test("GitHub's API: api.github.com for github.com, /api/v3 on an Enterprise host", () => {
  expect(defaultApiUrl("github.com")).toBe("https://api.github.com");
  expect(defaultApiUrl("ghe.example.com")).toBe("https://ghe.example.com/api/v3");
});
