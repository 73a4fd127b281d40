import { describe, expect, test } from "bun:test";
import { resolveSandbox, type SandboxLayer } from "../../src/sandbox/policy.ts";

const flag = (config: SandboxLayer["config"]): SandboxLayer => ({ from: "the spawn", config, trusted: true });
const user = (config: SandboxLayer["config"]): SandboxLayer => ({ from: "the user config", config, trusted: true });
const ws = (config: SandboxLayer["config"], trusted = false): SandboxLayer => ({ from: "ws.json", config, trusted });

describe("the sandbox's settings from their layers", () => {
  test("nothing said: auto, all the network, nothing more open", () => {
    expect(resolveSandbox([])).toEqual({ mode: "auto", network: "all", allowRead: [], allowWrite: [], allowEnv: [], ignored: [] });
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
});
