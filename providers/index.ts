import { spawn } from "node:child_process";
import { which } from "../src/runtime/process.ts";
import { aider } from "./aider.ts";
import { claude } from "./claude/provider.ts";
import { cline } from "./cline.ts";
import { codex } from "./codex.ts";
import { codexAcp } from "./codex-acp.ts";
import { copilot } from "./copilot.ts";
import { gemini } from "./gemini.ts";
import { generic } from "./generic.ts";
import { kilo } from "./kilo.ts";
import { PROVIDER_NAMES, type ProviderName } from "./names.ts";
import { opencode } from "./opencode.ts";
import { packageVersion } from "./package-version.ts";
import { pi } from "./pi.ts";
import { qwen } from "./qwen.ts";
import type { Provider } from "./types.ts";

export type { Provider } from "./types.ts";
export { PROVIDER_NAMES } from "./names.ts";

// A name without a module, or a module without a name, does not compile.
const BY_NAME: Record<ProviderName, Provider> = { claude, codex, "codex-acp": codexAcp, gemini, copilot, opencode, qwen, kilo, cline, pi, aider, generic };

/** Every provider troupe knows, in the order a person is shown them. */
export const PROVIDERS: readonly Provider[] = PROVIDER_NAMES.map((name) => BY_NAME[name]);

export function getProvider(name: string): Provider | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

export interface Detection {
  name: string;
  installed: boolean;
  version?: string;
  path?: string;
  install: string;
}

export interface DetectOptions {
  /** PATH to search instead of the process's own. */
  path?: string;
  /** How long the version command may take before it is given up on. */
  timeoutMs?: number;
}

// a CLI not installed from its npm package is asked; the larger ones take seconds to start on a busy machine
const VERSION_TIMEOUT_MS = 15_000;

/**
 * Whether a provider's CLI is on PATH and its version: its npm package's, else what its version
 * command says. Never throws: a CLI that hangs, crashes or prints nothing is still "installed",
 * just without a version.
 */
export async function detectProvider(p: Provider, opts: DetectOptions = {}): Promise<Detection> {
  const base = { name: p.name, install: p.install };
  // The generic provider runs whatever it is given: there is nothing to look for.
  if (p.binary === null) return { ...base, installed: true };
  const PATH = opts.path ?? process.env.PATH ?? "";
  const path = which(p.binary, PATH) ?? undefined;
  if (!path) return { ...base, installed: false };
  const version = (p.npmPackage && packageVersion(path, p.npmPackage)) || (await readVersion(path, p.versionArgs, PATH, opts.timeoutMs ?? VERSION_TIMEOUT_MS));
  return { ...base, installed: true, path, ...(version ? { version } : {}) };
}

/** Detects every provider concurrently. */
export function detectProviders(opts: DetectOptions = {}, providers: readonly Provider[] = PROVIDERS): Promise<Detection[]> {
  return Promise.all(providers.map((p) => detectProvider(p, opts)));
}

async function readVersion(path: string, args: string[], PATH: string, timeoutMs: number): Promise<string | undefined> {
  if (args.length === 0) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Its own process group, so a CLI whose children hold the pipes open can be stopped whole.
    const proc = spawn(path, args, { env: { ...process.env, PATH, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    proc.stdout.on("data", (b: Buffer) => out.push(b));
    proc.stderr.on("data", (b: Buffer) => err.push(b));
    // "close": the process ended and both pipes are drained (a spawn failure ends it too, code null)
    const output = new Promise<[string, string, number | null]>((resolve) => {
      proc.on("error", () => resolve(["", "", null]));
      proc.on("close", (code) => resolve([Buffer.concat(out).toString(), Buffer.concat(err).toString(), code]));
    });
    // being its own group, it would outlive us (a dashboard whose terminal hung up): stopped at our exit
    if (proc.pid !== undefined) trackProbe(proc.pid, output);
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        if (proc.pid !== undefined) killGroup(proc.pid);
        resolve(undefined);
      }, timeoutMs);
    });
    const done = await Promise.race([output, timedOut]);
    if (!done) return undefined;
    const [stdout, stderr, code] = done;
    return code === 0 ? (parseVersion(stdout) ?? parseVersion(stderr)) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const probes = new Set<number>();

function trackProbe(pid: number, exited: Promise<unknown>): void {
  if (probes.size === 0) process.once("exit", stopProbes);
  probes.add(pid);
  void exited.finally(() => {
    probes.delete(pid);
    if (probes.size === 0) process.removeListener("exit", stopProbes);
  });
}

function stopProbes(): void {
  for (const pid of probes) killGroup(pid);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** "codex-cli 0.169.0", "aider 0.86.1", "0.61.0", "2.1.197 (Claude Code)" → the version number. */
export function parseVersion(text: string): string | undefined {
  const firstLine = text.split("\n").find((l) => l.trim() !== "")?.trim();
  if (!firstLine) return undefined;
  return firstLine.match(/\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/)?.[0] ?? firstLine.slice(0, 40);
}
