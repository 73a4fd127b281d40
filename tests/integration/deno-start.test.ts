/**
 * What a start of the Deno build loads (issue 37): the commands agents run for each question and
 * signal, and `--version`, call neither node:fs nor node:crypto (Deno builds each polyfill as it
 * loads, ~20 ms apiece), which the bundle imports only through its stand-ins
 * (src/runtime/bun/lazy-builtins.ts). A preload records every built-in the stand-ins load.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { needed } from "../support/tools.ts";
import { DENO_BUNDLE_FLAGS, DENO_RUN_FLAGS } from "../../src/runtime/deno/flags.ts";
import type { Conversation } from "../../src/protocol/entities.ts";

const DENO_BIN = join(ROOT, "dist", "troupe-deno");
const BUNDLE = join(ROOT, "dist", "deno");
const DENO = join(ROOT, "node_modules", ".bin", "deno");
/** The Bun build asks the question: both must call themselves the same build, or one would replace the other's daemon. */
const SAME_BUILD = { TROUPE_TEST_BUILD_VERSION: "0.1.0+1" };

const PROBE = `const loaded = [];
const get = process.getBuiltinModule;
process.getBuiltinModule = (id) => (loaded.push(id), get.call(process, id));
globalThis.addEventListener("unload", () => Deno.stderr.writeSync(new TextEncoder().encode("builtins: " + JSON.stringify(loaded) + "\\n")));
`;

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

// once, in the Bun pass, against the Deno build .ci/run makes first
const built = !process.env.TROUPE_BIN && needed("dist/troupe-deno (npm run build:deno; .ci/run builds it first)", existsSync(DENO_BIN) && existsSync(join(BUNDLE, "main.js")));

/** `troupe ARGS` on Deno with the probe: its output and the built-ins it loaded. */
async function probed(args: string[]): Promise<{ code: number; stdout: string; stderr: string; builtins: string[] }> {
  const probe = join(sb.runtime, "probe.js");
  writeFileSync(probe, PROBE);
  const p = Bun.spawn([DENO, "run", ...DENO_RUN_FLAGS, ...DENO_BUNDLE_FLAGS, "--preload", probe, join(BUNDLE, "main.js"), ...args], { cwd: sb.dir, env: { ...sb.env, ...SAME_BUILD }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const line = stderr.split("\n").find((l) => l.startsWith("builtins: "));
  if (!line) throw new Error(`no probe report from troupe ${args.join(" ")} (exit ${code}): ${stderr}`);
  return { code, stdout, stderr: stderr.replace(`${line}\n`, ""), builtins: JSON.parse(line.slice("builtins: ".length)) as string[] };
}

describe.skipIf(!built)("a start of the Deno build", () => {
  test("the bundle imports node:fs and node:crypto only through their stand-ins", () => {
    const direct = readdirSync(BUNDLE).filter((f) => f.endsWith(".js") && /from\s*"node:(?:fs|crypto)"/.test(readFileSync(join(BUNDLE, f), "utf8")));
    expect(direct).toEqual([]);
  });

  test("`answer`, `signal` and `--version` load neither node:fs nor node:crypto, and do their work", async () => {
    sb = new Sandbox();
    Object.assign(sb.env, SAME_BUILD);
    // the Deno build starts the daemon; the Bun one asks the person, and waits
    const started = Bun.spawn([DENO_BIN, "ls", "--json"], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" });
    expect(await started.exited).toBe(0);
    const asking = Bun.spawn([join(ROOT, "dist", "troupe"), "ask", "which way?", "--user", "--timeout", "20000"], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" });
    const conv = await waitFor("the question", async () => (await sb.json<Conversation[]>(["conversations", "--json"]))[0]);

    const answered = await probed(["answer", "left", "--conversation", conv.id]);
    expect({ code: answered.code, stderr: answered.stderr, builtins: answered.builtins }).toEqual({ code: 0, stderr: "", builtins: [] });
    expect(JSON.parse(answered.stdout)).toMatchObject({ conversationId: conv.id, status: "answered" });
    expect((await new Response(asking.stdout).text()).trim()).toBe("left");
    expect(await asking.exited).toBe(0);

    const version = await probed(["--version"]);
    expect(version).toMatchObject({ code: 0, builtins: [] });
    expect(version.stdout).toMatch(/^troupe .*deno \d/);

    // a signal names an agent: without one it is refused, through the same start
    const refused = await probed(["signal", "done"]);
    expect(refused.code).not.toBe(0);
    expect(refused.builtins).toEqual([]);
  });
});
