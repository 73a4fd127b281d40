// Dead-code check (`npm run lint:dead`): files no entry reaches, exports and types no other file
// uses, dependencies nothing imports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { KnipConfig } from "knip";

// `#runtime/<name>` (package.json "imports") resolves by the running runtime's condition; knip
// follows one of them (and the browser's for the web page's modules). Every adapter's modules
// that a facade in src/runtime/ names are entries, derived from the same two places the runtime
// reads, so a dead helper beside them still shows.
const runtimeMap = JSON.parse(readFileSync("package.json", "utf8")).imports["#runtime/*"] as Record<string, string>;
const facadeTargets = readdirSync("src/runtime")
  .filter((f) => f.endsWith(".ts"))
  .flatMap((f) => [...readFileSync(`src/runtime/${f}`, "utf8").matchAll(/["']#runtime\/([^"']+)["']/g)].map((m) => m[1]!));
const adapters = Object.values(runtimeMap)
  .flatMap((target) => facadeTargets.map((name) => target.replace("*", name).replace(/^\.\//, "")))
  // the browser's adapter has only what the page loads (src/runtime/browser/)
  .filter((path) => existsSync(path));

const config: KnipConfig = {
  entry: [
    "src/main.ts",
    // the web page's bundle (scripts/build-web.ts hands it to the bundler by path)
    "src/web/page/main.tsx",
    ...adapters,
    // scripts/build.ts hands it to the bundler by path as zod's locales index
    "src/runtime/bun/zod-locales.ts",
    "scripts/**/*.{ts,tsx}",
    "tests/**/*.test.{ts,tsx}",
    // programs the tests spawn
    "tests/integration/output-filter-driver.ts",
    "tests/support/fake-acp-agent.ts",
    "tests/fixtures/**/*.ts",
  ],
  project: ["src/**/*.{ts,tsx}", "providers/**/*.ts", "scripts/**/*.{ts,tsx}", "tests/**/*.{ts,tsx}"],
  // The agent CLIs: the end-to-end tests and scripts/check-clis.ts run their binaries, nothing
  // imports them.
  ignoreDependencies: [
    "@github/copilot",
    "@google/gemini-cli",
    "@kilocode/cli",
    "@mariozechner/pi-coding-agent",
    "@openai/codex",
    "@qwen-code/qwen-code",
    "@zed-industries/codex-acp",
    "cline",
    "opencode-ai",
    // the Deno bundle's stand-ins for node:path and parseArgs (src/runtime/bun/pure-builtins.ts
    // names them to the bundler by name)
    "path-browserify",
    "@pkgjs/parseargs",
  ],
  // System programs (util-linux, coreutils) tests/runtime/contract.test.ts runs; no package has them.
  ignoreBinaries: ["flock", "mkfifo"],
};

export default config;
