/**
 * A permission request's round trip through troupe, for an agent driven over ACP: the agent
 * (acp-agent.ts, mode `ask`, under its runner under a real daemon: acp-session.ts) asks
 * `session/request_permission` N times, one after the other; the bench, as the person's client,
 * follows the event stream the dashboard reads (`GET /v1/events`) and decides each request
 * (`POST /v1/permissions/:id/decide`) the moment it shows. Two legs:
 *  - ask → visible: from the agent's request to `permission:created` reaching the event stream's
 *    reader (through the runner, `POST /v1/permissions`, the store, the bus, SSE);
 *  - decide → answered: from the person's POST to the agent's receiving the response (the
 *    runner's long poll `GET /v1/permissions/:id/wait` woken, its answer over the pipe);
 * each between clocks of two processes (`performance.timeOrigin + now()`, both Bun); their sum,
 * troupe's whole share, is exact: the agent's ask → answer less the bench's own seen → decide.
 * Beside it, the floor in the same run: one POST to the runtime's bare server on a Unix socket
 * (floor.ts), 10 ms after each decide (the agent waits $gap before its next ask).
 * Medians of several runs (a fresh agent each), the first `--warm` asks of each left out.
 *
 *   bun scripts/bench/acp-permission.ts [--asks 200] [--runs 3] [--gap 50] [--warm 10]   (TROUPE_BIN: another build)
 */
import { sleep } from "../../src/runtime/process.ts";
import { BIN, load, pct, runtimeOf } from "./floor.ts";
import { benchArgs } from "./harness.ts";
import { AcpBench, now, recordReader, startFloor, until } from "./acp-session.ts";
import { cmdline, cpuTicks, descendants } from "./proc-stats.ts";

const o = benchArgs("usage: bun scripts/bench/acp-permission.ts [--asks 200] [--runs 3] [--gap 50] [--warm 10]", {
  asks: { type: "string", default: "200" },
  runs: { type: "string", default: "3" },
  gap: { type: "string", default: "50" },
  warm: { type: "string", default: "10" },
});
const ASKS = Number(o.asks);
const WARM = Number(o.warm);

interface Ask {
  ask: number;
  command: string;
  asked: number;
  answered: number;
  outcome: string;
}
interface Seen {
  seen: number;
  decide: number;
  /** The daemon's own times (Date.now(), whole ms): the request filed, and decided. */
  created: number;
  decided: number;
}
interface Run {
  visible: number[];
  answered: number[];
  share: number[];
  floor: number[];
  /** Each leg cut at the daemon's own time (whole ms): ask → filed, filed → visible; decide → decided, decided → answered. */
  split: [number[], number[], number[], number[]];
  /** CPU per round trip (ms; the whole run, its idle gaps included, over its asks): the daemon's and the runner's. */
  daemonCpu: number;
  runnerCpu: number;
}

const bench = new AcpBench();
bench.start();
const floor = await startFloor(bench, "/v1/permissions/perm_1/decide", '{"behavior":"allow"}');

async function run(): Promise<Run> {
  const client = bench.daemon.client;
  const seen = new Map<string, Seen>();
  const floorMs: number[] = [];
  const abort = new AbortController();
  // every agent's output too, as a dashboard showing this agent gets its frames
  const events = await client.openEvents(null, abort.signal);
  const person = (async () => {
    try {
      for await (const { event: e } of events) {
        if (e.type !== "permission:created" || e.request.status !== "pending") continue;
        const at = now();
        const command = String(e.request.input.command);
        const decide = now();
        const decided = await client.decidePermission(e.request.id, { behavior: "allow" });
        seen.set(command, { seen: at, decide, created: e.request.createdAt, decided: decided.decidedAt ?? NaN });
        await sleep(10);
        floorMs.push(await floor.once());
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  const { agent, record } = await bench.spawn({ BENCH_ACP_MODE: "ask", BENCH_ACP_ASKS: String(ASKS), BENCH_ACP_GAP_MS: o.gap! }, "ask");
  const daemonPid = (await client.health()).pid;
  const runnerPid = await until("the runner", async () => {
    const wrapper = (await client.agent(agent.id)).pid;
    return wrapper ? descendants(wrapper).find((p) => cmdline(p).includes(" acp-run ") && !cmdline(p).startsWith("/bin/sh ")) : undefined;
  }, 30_000, 20);
  const cpu0 = [cpuTicks(daemonPid), cpuTicks(runnerPid)];
  const records = recordReader<Ask & { asked?: number }>(record);
  await until("every ask answered", () => (records().some((r) => r.asked === ASKS) ? true : undefined), ASKS * 2_000, 50);
  const [daemonCpu, runnerCpu] = [cpuTicks(daemonPid), cpuTicks(runnerPid)].map((t, i) => ((t - cpu0[i]!) * 10) / ASKS);
  await bench.stop(agent);
  abort.abort();
  await person;
  const asks = records().filter((r) => typeof r.ask === "number" && r.ask >= WARM);
  const out: Run = { visible: [], answered: [], share: [], floor: floorMs.slice(WARM), split: [[], [], [], []], daemonCpu: daemonCpu!, runnerCpu: runnerCpu! };
  for (const a of asks) {
    const s = seen.get(a.command);
    if (!s || a.outcome !== "allow") throw new Error(`ask ${a.ask}: ${s ? `answered ${a.outcome}` : "never seen on the event stream"}`);
    out.visible.push(s.seen - a.asked);
    out.answered.push(a.answered - s.decide);
    out.share.push(a.answered - a.asked - (s.decide - s.seen));
    [s.created - a.asked, s.seen - s.created, s.decided - s.decide, a.answered - s.decided].forEach((v, i) => out.split[i]!.push(v));
  }
  return out;
}

const runs: Run[] = [];
try {
  for (let r = 0; r < Number(o.runs); r++) {
    runs.push(await run());
    process.stderr.write(`run ${r + 1}: ask → visible median ${pct(runs.at(-1)!.visible, 50).toFixed(2)} ms · ${load()}\n`);
  }
} finally {
  floor.stop();
  await bench.close();
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const med = (xs: number[]) => pct(xs, 50);
/** `median M, p99 P` of each run's figures: medians of the runs' medians and p99s, and each run's. */
function figure(label: string, pick: (r: Run) => number[], floorOf: (r: Run) => number[]): void {
  const m = runs.map((r) => pct(pick(r), 50));
  const p = runs.map((r) => pct(pick(r), 99));
  const fm = runs.map((r) => pct(floorOf(r), 50));
  const ratio = runs.map((r) => pct(pick(r), 50) / pct(floorOf(r), 50));
  console.log(`  ${label}: median ${ms(med(m))}, p99 ${ms(med(p))} (runs: medians ${m.map((x) => x.toFixed(2)).join(", ")}; p99 ${p.map((x) => x.toFixed(2)).join(", ")}); ${med(ratio).toFixed(2)}x the floor's median ${ms(med(fm))}`);
}
const n = runs.reduce((t, r) => t + r.share.length, 0);
console.log(`ACP permission round trip, troupe's share (${BIN.split("/").pop()}, ${runtimeOf(BIN)}): ${runs.length} runs of ${ASKS} asks (${WARM} left out each; ${n} in all), gap ${o.gap} ms · ${load()}`);
console.log(`  floor: one POST to a bare ${runtimeOf(BIN)} server on a Unix socket: median ${ms(med(runs.map((r) => pct(r.floor, 50))))}, p99 ${ms(med(runs.map((r) => pct(r.floor, 99))))}`);
figure("agent's request → visible on the event stream", (r) => r.visible, (r) => r.floor);
figure("person's decide → agent has the response", (r) => r.answered, (r) => r.floor);
figure("both legs (exact: the agent's ask → answer less the person's seen → decide)", (r) => r.share, (r) => r.floor.map((f) => 2 * f));
const cut = (i: number) => ms(med(runs.map((r) => pct(r.split[i]!, 50))));
console.log(`  where each leg goes, cut at the daemon's own clock (whole ms, so ±0.5 ms; medians): ask → filed ${cut(0)}, filed → visible ${cut(1)}; decide → decided ${cut(2)}, decided → answered ${cut(3)}`);
console.log(`  CPU per round trip (10 ms ticks over each run, gaps included): the daemon ${med(runs.map((r) => r.daemonCpu)).toFixed(2)} ms, the runner ${med(runs.map((r) => r.runnerCpu)).toFixed(2)} ms`);
console.log("  targets: each leg ≤ 2x the floor (both legs against two floors), p99 ≤ 50 ms");
