import { describe, expect, test } from "bun:test";
import { resolveSandbox, type SandboxLayer } from "../../src/sandbox/policy.ts";

const flag = (config: SandboxLayer["config"]): SandboxLayer => ({ from: "the spawn", config, trusted: true });
const user = (config: SandboxLayer["config"]): SandboxLayer => ({ from: "the user config", config, trusted: true });
const ws = (config: SandboxLayer["config"], trusted = false): SandboxLayer => ({ from: "ws.json", config, trusted });

describe("the sandbox's settings from their layers", () => {
  test("nothing said: auto, all the network, nothing more open", () => {
    expect(resolveSandbox([])).toEqual({ mode: "auto", network: "all", allowRead: [], allowWrite: [], allowEnv: [], allowHosts: [], ignored: [] });
  });

  test("a flag wins over the user config, which wins over the workspace's", () => {
    expect(resolveSandbox([flag({ mode: "off" }), user({ mode: "strict", network: "none" }), ws({ mode: "strict" }, true)])).toMatchObject({ mode: "off", network: "none", ignored: [] });
    expect(resolveSandbox([flag({}), user({ network: "all" }), ws({ network: "none" })])).toMatchObject({ network: "all", ignored: [] });
  });

  test("an untrusted workspace config tightens, and what would loosen is said and not taken", () => {
    expect(resolveSandbox([ws({ mode: "strict", network: "none" })])).toMatchObject({ mode: "strict", network: "none", ignored: [] });
    const r = resolveSandbox([user({ network: "none" }), ws({ mode: "off", network: "all", allowWrite: ["~/.cache"], allowEnv: ["GH_TOKEN"] })]);
    expect(r).toMatchObject({ mode: "auto", network: "none", allowWrite: [], allowEnv: [] });
    expect(r.ignored).toEqual([
      `ws.json's sandbox.mode "off" is not taken: it loosens the sandbox, and the file is not trusted (troupe trust)`,
      `ws.json's sandbox.allowWrite (~/.cache) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`,
      `ws.json's sandbox.allowEnv (GH_TOKEN) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`,
    ]);
  });

  test("trusted, it loosens; the lists of every trusted layer add up", () => {
    expect(resolveSandbox([user({ allowRead: ["/opt/a"] }), ws({ mode: "off", allowRead: ["/opt/b"] }, true)])).toMatchObject({ mode: "off", allowRead: ["/opt/a", "/opt/b"], ignored: [] });
  });

  test("network allow's hosts: the person's add up; an untrusted file's are taken only with the allow it sets over all, never added to the person's", () => {
    expect(resolveSandbox([flag({ network: "allow" }), user({ allowHosts: ["a.example"] }), ws({ allowHosts: ["b.example"] }, true)])).toMatchObject({ network: "allow", allowHosts: ["a.example", "b.example"], ignored: [] });
    // any list is tighter than the whole network
    expect(resolveSandbox([ws({ network: "allow", allowHosts: ["github.com"] })])).toMatchObject({ network: "allow", allowHosts: ["github.com"], ignored: [] });
    const added = resolveSandbox([user({ network: "allow", allowHosts: ["npmjs.org"] }), ws({ allowHosts: ["evil.example"] })]);
    expect(added).toMatchObject({ network: "allow", allowHosts: ["npmjs.org"] });
    expect(added.ignored).toEqual([`ws.json's sandbox.allowHosts (evil.example) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`]);
    // its allow over the person's all: its own list, as long as the person named none
    expect(resolveSandbox([user({ network: "all", allowHosts: ["npmjs.org"] }), ws({ network: "allow", allowHosts: ["evil.example"] })])).toMatchObject({ network: "all", allowHosts: ["npmjs.org"] });
    // the person's own allow, said again above the file's: the file's hosts would loosen it
    const same = resolveSandbox([user({ network: "allow" }), ws({ network: "allow", allowHosts: ["evil.example"] })]);
    expect(same).toMatchObject({ network: "allow", allowHosts: [] });
    expect(same.ignored).toEqual([`ws.json's sandbox.allowHosts (evil.example) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`]);
    expect(resolveSandbox([flag({ network: "allow" }), ws({ network: "allow", allowHosts: ["evil.example"] })])).toMatchObject({ allowHosts: [] });
    expect(resolveSandbox([user({ network: "none" }), ws({ network: "allow" })])).toMatchObject({ network: "none", ignored: [] });
    expect(resolveSandbox([user({ network: "allow" }), ws({ network: "all" })])).toMatchObject({ network: "allow", ignored: [] });
  });
});
