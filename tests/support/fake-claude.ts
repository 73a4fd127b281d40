import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A stand-in `claude` on PATH for lifecycle tests: it speaks Claude Code's stream-json (an init
 * line with a session id, so troupe can resume it with `--resume`), then runs `body`, a shell
 * snippet that sees the prompt (the first line of stdin, a stream-json user message) in `$prompt`
 * and the resumed session id in `$resumed`. Every run
 * appends its arguments, one per line, to `argsFile`. Returns the folder to put first on PATH.
 * (The real CLI against a scripted API is tests/e2e/claude.test.ts; this one shows lifecycle
 * decisions without a model.)
 */
export function fakeClaude(dir: string, argsFile: string, body: string): string {
  const bin = join(dir, "fake-bin");
  mkdirSync(bin, { recursive: true });
  const init = JSON.stringify({ type: "system", subtype: "init", session_id: "fake-session", model: "fake" });
  const script = `#!/bin/sh
printf '%s\\n' "$@" >> ${argsFile}
prompt=""; resumed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --resume) resumed="$2"; shift ;;
    --) shift; prompt="$*"; break ;;
  esac
  shift
done
# the prompt is the first line of stdin, a stream-json user message (--input-format stream-json)
[ -n "$prompt" ] || IFS= read -r prompt || true
echo '${init}'
${body}
`;
  writeFileSync(join(bin, "claude"), script);
  chmodSync(join(bin, "claude"), 0o755);
  return bin;
}

/** A stream-json result line (cost in USD). */
export const resultLine = (text: string, costUsd = 0) =>
  JSON.stringify({ type: "result", subtype: "success", is_error: false, result: text, total_cost_usd: costUsd, usage: { input_tokens: 1, output_tokens: 1 } });
