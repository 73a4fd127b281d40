/**
 * What an agent's `troupe ask`, `answer`, `listen` and `signal` cost on a Deno build: they load
 * no Node built-in and never build Node's `process` global (docs/performance.md, "Deno": each is
 * milliseconds of every start). The bundle's chunks are read for their imports, and the commands
 * are run with a preload that reports every read of the `process` global.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, BIN_RUNTIME, ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { DENO_BUNDLE_FLAGS, DENO_RUN_FLAGS } from "../../src/runtime/deno/flags.ts";

const deno = BIN_RUNTIME === "deno";
const bundle = join(dirname(BIN), "deno");
const MARK = "NODE PROCESS BUILT";

/** The `node:` modules a chunk of the bundle loads as it loads, through its static imports. */
function staticBuiltins(entry: string): string[] {
  const seen = new Set<string>();
  const builtins = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(join(bundle, file), "utf8").matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+|[a-z@][\w:./@-]*)"/g)) {
      if (spec!.startsWith("./")) visit(spec!.slice(2));
      else builtins.add(spec!);
    }
  };
  visit(entry);
  return [...builtins].sort();
}

let sb: Sandbox;
let preload: string;
beforeAll(async () => {
  if (!deno) return;
  sb = new Sandbox();
  preload = join(sb.dir, "..", "report-process.js");
  writeFileSync(
    preload,
    `const own = Object.getOwnPropertyDescriptor(globalThis, "process");
Object.defineProperty(globalThis, "process", { ...own, get() {
  Deno.stderr.writeSync(new TextEncoder().encode(${JSON.stringify(MARK)} + new Error().stack + "\\n"));
  return own.get.call(this);
} });\n`,
  );
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
});
afterAll(async () => {
  if (deno) await sb.close();
});

/** `troupe ARGS` of the Deno build, with the preload that reports a read of `process`. */
async function traced(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = [join(ROOT, "node_modules/deno/deno"), "run", ...DENO_RUN_FLAGS, ...DENO_BUNDLE_FLAGS, "--preload", preload, join(bundle, "main.js"), ...args];
  const p = Bun.spawn(argv, { cwd: sb.dir, env: { ...sb.env, DENO_NO_UPDATE_CHECK: "1" }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

test.skipIf(!deno)("the agent-side commands' chunks of the Deno bundle import no Node built-in", () => {
  const chunks = readdirSync(bundle);
  const command = (name: string) => chunks.find((f) => f.startsWith(`${name}-`) && f.endsWith(".js"))!;
  expect(staticBuiltins("main.js")).toEqual([]);
  for (const name of ["answer", "ask", "listen", "signal"]) expect({ name, builtins: staticBuiltins(command(name)) }).toEqual({ name, builtins: [] });
  // the walk sees built-ins where a chunk has them: troupe doctor runs the providers
  expect(staticBuiltins(command("doctor"))).toContain("node:child_process");
});

test.skipIf(!deno)("troupe answer, ask and --version of the Deno build never build Node's process global", async () => {
  const asking = sb.start(["ask", "--user", "--timeout", "60000", "which colour?"]);
  const id = await waitFor("the question", async () => (await sb.json<{ id: string }[]>(["conversations", "--json"]))[0]?.id);
  const answer = await traced(["answer", "blue", "--conversation", id]);
  expect(answer.stderr).toBe("");
  expect(answer.code).toBe(0);
  expect(await new Response(asking.stdout).text()).toBe("blue\n");
  expect(await asking.exited).toBe(0);

  // an error's exit, and an expiry's, end the same way
  const missing = await traced(["answer", "blue", "--conversation", "cv_none"]);
  expect(missing).toMatchObject({ code: 1, stderr: "troupe: no conversation 'cv_none'\n" });
  const expired = await traced(["ask", "--user", "--timeout", "1", "still there?"]);
  expect(expired.stderr).not.toContain(MARK);
  expect(expired.code).toBe(3);
  expect(await traced(["--version"])).toMatchObject({ code: 0, stderr: "" });

  // the preload does see a command that uses Node's built-ins (`troupe providers` looks at PATH)
  expect((await traced(["providers"])).stderr).toContain(MARK);
}, 60_000);
