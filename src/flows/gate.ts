import { spawn } from "node:child_process";
import { z } from "zod";
import { TroupeError } from "../errors.ts";

/** What a gate decided: whether the run goes ahead, and the values of the prompt's `[[var]]`s. */
export interface GateDecision {
  run: boolean;
  vars: Record<string, string>;
}

const GATE_TIMEOUT_MS = 60_000;
const MAX_GATE_OUTPUT = 1024 * 1024;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const GateOutputSchema = z.record(z.string(), Scalar);

/**
 * A gate's stdout: empty (run, no values) or one JSON object; `run: false` skips the run, every
 * other key is a value for `[[key]]` in the prompt.
 */
export function parseGateOutput(stdout: string): GateDecision {
  const text = stdout.trim();
  if (text === "") return { run: true, vars: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TroupeError("bad_request", `the gate's output is not JSON: ${text.slice(0, 80)}`);
  }
  const parsed = GateOutputSchema.safeParse(json);
  if (!parsed.success) throw new TroupeError("bad_request", "the gate's output must be one JSON object of strings, numbers and booleans");
  const { run, ...rest } = parsed.data;
  if (run !== undefined && typeof run !== "boolean") throw new TroupeError("bad_request", "the gate's `run` must be true or false");
  return { run: run !== false, vars: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])) };
}

/** The prompt with each `[[name]]` replaced; a name the gate gave no value for refuses the run. */
export function fillPrompt(prompt: string, vars: Record<string, string>): string {
  const missing = new Set<string>();
  const out = prompt.replace(/\[\[([A-Za-z0-9_.-]+)\]\]/g, (whole, name: string) => {
    if (Object.hasOwn(vars, name)) return vars[name]!;
    missing.add(name);
    return whole;
  });
  if (missing.size) throw new TroupeError("bad_request", `the gate gave no value for ${[...missing].map((n) => `[[${n}]]`).join(", ")}`);
  return out;
}

/**
 * Runs a gate (`sh -c`, in the workspace, with the flow's environment), then reads its decision.
 * A gate that fails (non-zero exit, timeout, output past 1 MiB) refuses the run with why.
 */
export function runGate(script: string, cwd: string, env: Record<string, string>): Promise<GateDecision> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let over = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), GATE_TIMEOUT_MS);
    child.stdout.on("data", (b: Buffer) => {
      if (out.length + b.length > MAX_GATE_OUTPUT) {
        over = true;
        child.kill("SIGKILL");
      } else out += b.toString("utf8");
    });
    child.stderr.on("data", (b: Buffer) => {
      if (err.length < 4096) err += b.toString("utf8");
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new TroupeError("internal", `the gate could not start: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (over) return reject(new TroupeError("bad_request", "the gate wrote more than 1 MiB"));
      if (signal) return reject(new TroupeError("bad_request", `the gate was killed (${signal}${signal === "SIGKILL" ? `, after ${GATE_TIMEOUT_MS / 1000} s?` : ""})`));
      if (code !== 0) return reject(new TroupeError("bad_request", `the gate exited ${code}${err.trim() ? `: ${err.trim().split("\n").at(-1)}` : ""}`));
      try {
        resolve(parseGateOutput(out));
      } catch (e) {
        reject(e);
      }
    });
  });
}
