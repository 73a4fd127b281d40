/**
 * Next-prompt delivery for an agent driven over ACP: a message sent while the agent works
 * (`troupe send`'s `POST /v1/messages`) is its next `session/prompt` once its turn ends. The
 * agent (acp-agent.ts, mode `turns`, under its runner under a real daemon: acp-session.ts) holds
 * each turn `--hold` ms; the bench sees the turn begin (the agent's record), sends the message
 * for the next one, and the agent records when its turn ended and when the next prompt came, both
 * on its own clock: the figure is that gap (the daemon wrote the line into the session's input
 * folder during the turn; the runner claims it, logs it and prompts). Each next prompt is checked
 * to carry its message. Beside it, the floor in the same run: one POST to the runtime's bare
 * server on a Unix socket (floor.ts), during each turn. Medians of several runs (a fresh agent each).
 *
 *   bun scripts/bench/acp-next-prompt.ts [--turns 100] [--runs 3] [--hold 150] [--warm 5]   (TROUPE_BIN: another build)
 */
import { BIN, load, pct, runtimeOf } from "./floor.ts";
import { benchArgs } from "./harness.ts";
import { AcpBench, now, recordReader, startFloor, until } from "./acp-session.ts";

const o = benchArgs("usage: bun scripts/bench/acp-next-prompt.ts [--turns 100] [--runs 3] [--hold 150] [--warm 5]", {
  turns: { type: "string", default: "100" },
  runs: { type: "string", default: "3" },
  hold: { type: "string", default: "150" },
  warm: { type: "string", default: "5" },
});
const TURNS = Number(o.turns) + Number(o.warm);
const WARM = Number(o.warm);

interface Rec {
  prompt?: number;
  end?: number;
  at: number;
  pid?: number;
  text?: string;
}
interface Run {
  delivery: number[];
  send: number[];
  floor: number[];
  /** Sends whose reply came after the turn had ended (their delivery counts the send's lateness too). */
  late: number;
  /** Why the session ended before its last turn, if it did. */
  broken: string | null;
}

const bench = new AcpBench();
bench.start();
const floor = await startFloor(bench, "/v1/messages", '{"to":"acp-1","text":"x"}');

/** Thrown when a prompt comes from another process than the first: the agent's session ended and a new one began. */
class SessionEnded extends Error {}

async function run(): Promise<Run> {
  const { agent, record } = await bench.spawn({ BENCH_ACP_MODE: "turns", BENCH_ACP_TURNS: String(TURNS), BENCH_ACP_HOLD_MS: o.hold! }, "skip");
  const out: Run = { delivery: [], send: [], floor: [], late: 0, broken: null };
  const sentAt: number[] = [];
  const records = recordReader<Rec>(record);
  /** Turn k has begun in the session the agent started in. */
  const begun = (k: number) => {
    const recs = records();
    const other = recs.find((r) => r.pid !== undefined && r.pid !== recs[0]?.pid);
    if (other) throw new SessionEnded(`its session ended after ${recs.filter((r) => r.pid === recs[0]?.pid && r.prompt !== undefined).length} of ${TURNS + 1} prompts, and a new session began with ${JSON.stringify(other.text?.slice(0, 60))}`);
    return recs.some((r) => r.prompt === k) ? true : undefined;
  };
  try {
    for (let k = 0; k < TURNS; k++) {
      await until(`turn ${k} to begin`, () => begun(k), 30_000, 5);
      const t = now();
      await bench.daemon.client.send({ to: agent.id, text: `bench-next-${k + 1}` });
      sentAt.push(now());
      if (k >= WARM) out.send.push(now() - t);
      const f = await floor.once();
      if (k >= WARM) out.floor.push(f);
    }
    await until("the last prompt", () => begun(TURNS), 30_000, 5);
  } catch (err) {
    if (!(err instanceof SessionEnded)) throw err;
    out.broken = err.message;
  }
  await bench.stop(agent).catch(() => undefined);
  const all = records();
  const recs = all.filter((r) => r.pid === undefined || r.pid === all[0]?.pid);
  const prompt = new Map(recs.filter((r) => r.prompt !== undefined).map((r) => [r.prompt!, r]));
  const end = new Map(recs.filter((r) => r.end !== undefined).map((r) => [r.end!, r]));
  for (let k = WARM; k < TURNS; k++) {
    const next = prompt.get(k + 1);
    if (!next || !end.has(k)) break;
    if (!next.text?.includes(`bench-next-${k + 1}`)) throw new Error(`prompt ${k + 1} does not carry its message: ${JSON.stringify(next.text)}`);
    out.delivery.push(next.at - end.get(k)!.at);
    if (sentAt[k]! > end.get(k)!.at) out.late++;
  }
  return out;
}

const runs: Run[] = [];
try {
  for (let r = 0; r < Number(o.runs); r++) {
    runs.push(await run());
    const last = runs.at(-1)!;
    process.stderr.write(`run ${r + 1}: turn end → next prompt median ${pct(last.delivery, 50).toFixed(2)} ms over ${last.delivery.length} turns${last.broken ? `; ${last.broken}` : ""} · ${load()}\n`);
  }
} finally {
  floor.stop();
  await bench.close();
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const med = (xs: number[]) => pct(xs, 50);
const each = (f: (r: Run) => number) => runs.map(f);
const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
const m = each((r) => pct(r.delivery, 50));
const p = each((r) => pct(r.delivery, 99));
console.log(`ACP next-prompt delivery (${BIN.split("/").pop()}, ${runtimeOf(BIN)}): ${runs.length} runs of ${TURNS - WARM} turns (${WARM} left out each), each turn held ${o.hold} ms · ${load()}`);
console.log(`  floor: one POST to a bare ${runtimeOf(BIN)} server on a Unix socket: median ${ms(med(each((r) => pct(r.floor, 50))))}, p99 ${ms(med(each((r) => pct(r.floor, 99))))}`);
console.log(`  send (POST /v1/messages, the agent busy): median ${ms(med(each((r) => pct(r.send, 50))))}, p99 ${ms(med(each((r) => pct(r.send, 99))))}`);
console.log(`  turn end → next session/prompt at the agent: median ${ms(med(m))}, p99 ${ms(med(p))} (runs: medians ${list(m)}; p99 ${list(p)}); ${med(each((r) => pct(r.delivery, 50) / pct(r.floor, 50))).toFixed(2)}x the floor's median`);
console.log(`  sends answered after their turn had ended: ${runs.map((r) => r.late).join(", ")} · target: p99 ≤ 50 ms`);
for (const [i, r] of runs.entries()) if (r.broken) console.log(`  run ${i + 1} cut short: ${r.broken} (${r.delivery.length} turns measured)`);
