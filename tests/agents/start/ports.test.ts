import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { createStore } from "../../../src/store/index.ts";
import { leasePorts, portFree, portsEnv } from "../../../src/agents/start/ports.ts";
import { TroupeError } from "../../../src/errors.ts";

const stores: { close(): void }[] = [];
afterAll(() => stores.forEach((s) => s.close()));

function store() {
  const s = createStore(":memory:", { warn: () => undefined });
  stores.push(s);
  return s;
}

const allFree = async () => true;

describe("leasing ports", () => {
  test("each agent gets the lowest ports nobody holds, per each, by slot; a release hands them out again", async () => {
    const s = store();
    const range = { from: 4000, to: 4005, per: 2 };
    expect(await leasePorts(s.ports, "ag_a", range, allFree)).toEqual([4000, 4001]);
    expect(await leasePorts(s.ports, "ag_b", range, allFree)).toEqual([4002, 4003]);
    expect(s.ports.of("ag_b")).toEqual([4002, 4003]);
    s.ports.release("ag_a");
    expect(s.ports.of("ag_a")).toEqual([]);
    expect(await leasePorts(s.ports, "ag_c", range, allFree)).toEqual([4000, 4001]);
  });

  test("concurrent leases never share a port", async () => {
    const s = store();
    const range = { from: 5000, to: 5199, per: 3 };
    // every probe waits, so all 30 leases are under way at once
    const slow = (p: number) => new Promise<boolean>((r) => setTimeout(() => r(p % 7 !== 0), 5));
    const got = await Promise.all(Array.from({ length: 30 }, (_, i) => leasePorts(s.ports, `ag_${i}`, range, slow)));
    const all = got.flat();
    expect(new Set(all).size).toBe(90);
    expect(all.every((p) => p % 7 !== 0 && p >= 5000 && p <= 5199)).toBe(true);
  });

  test("a port something else listens on is skipped, not taken; held ones are never probed", async () => {
    const s = store();
    const probed: number[] = [];
    const free = async (p: number) => (probed.push(p), p !== 6001);
    expect(await leasePorts(s.ports, "ag_a", { from: 6000, to: 6003, per: 1 }, free)).toEqual([6000]);
    expect(await leasePorts(s.ports, "ag_b", { from: 6000, to: 6003, per: 1 }, free)).toEqual([6002]);
    expect(probed).toEqual([6000, 6001, 6002]);
    // a probe that throws counts as in use
    expect(await leasePorts(s.ports, "ag_c", { from: 6000, to: 6003, per: 1 }, async (p) => { if (p === 6001 || p === 6003) throw new Error("EACCES"); return true; }).catch((e: Error) => e.message)).toBe(
      "no free port left in ports 6000-6003 (workspace config): 2 held by agents' worktrees, 2 in use by other programs",
    );
  });

  test("an exhausted range refuses in one line naming it, and leases nothing", async () => {
    const s = store();
    await leasePorts(s.ports, "ag_a", { from: 7000, to: 7002, per: 2 }, allFree);
    const err = await leasePorts(s.ports, "ag_b", { from: 7000, to: 7002, per: 2 }, allFree).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TroupeError);
    expect((err as TroupeError).code).toBe("ports_exhausted");
    expect((err as Error).message).toBe("no 2 free ports left in ports 7000-7002 (workspace config): 2 held by agents' worktrees, 0 in use by other programs");
    expect(s.ports.of("ag_b")).toEqual([]);
  });

  test("leases of agents never recorded go at a daemon's start; a recorded agent's stay, and go with it", async () => {
    const s = store();
    s.agents.insert({ id: "ag_kept", name: "kept", provider: "generic", prompt: null, command: "true", model: null, cwd: "/", worktree: "/w", branch: "troupe/kept", baseRef: "HEAD", permissions: "skip", tokenHash: "h", signalFile: "/s" });
    await leasePorts(s.ports, "ag_kept", { from: 8000, to: 8010, per: 2 }, allFree);
    await leasePorts(s.ports, "ag_lost", { from: 8000, to: 8010, per: 1 }, allFree);
    expect(s.agents.get("ag_kept")!.ports).toEqual([8000, 8001]);
    expect(s.ports.dropOrphans()).toBe(1);
    expect(s.ports.of("ag_lost")).toEqual([]);
    s.agents.delete("ag_kept");
    expect(s.ports.heldIn({ from: 8000, to: 8010 })).toBe(0);
  });
});

describe("probing a port", () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((sv) => sv.close()));

  const listen = (host: string) =>
    new Promise<number>((resolve) => {
      const sv = createServer();
      servers.push(sv);
      sv.listen({ port: 0, host }, () => resolve((sv.address() as { port: number }).port));
    });

  test("a listener on 127.0.0.1 or on 0.0.0.0 makes the port busy; a closed one frees it", async () => {
    expect(await portFree(await listen("127.0.0.1"))).toBe(false);
    expect(await portFree(await listen("0.0.0.0"))).toBe(false);
    const sv = servers.pop()!;
    const port = (sv.address() as { port: number }).port;
    await new Promise((r) => sv.close(r));
    expect(await portFree(port)).toBe(true);
  });
});

test("an agent's environment: PORT and TROUPE_PORT the first, TROUPE_PORT_n each; none without ports", () => {
  expect(portsEnv([3000, 3001])).toEqual({ PORT: "3000", TROUPE_PORT: "3000", TROUPE_PORT_1: "3000", TROUPE_PORT_2: "3001" });
  expect(portsEnv([])).toEqual({});
});
