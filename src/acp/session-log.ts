import { writeSync } from "node:fs";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import type { RunnerLine } from "../../providers/acp/lines.ts";

/**
 * The session's output file, as the runner writes it (its stdout is that file): one JSON line per
 * frame or fact (providers/acp/lines.ts), each written whole and at once, so the daemon tailing it
 * reads every line once, in the order things happened. The secrets the runner was given (the
 * agent's token, passed on to troupe's MCP server) never reach the file.
 */
export class SessionLog {
  constructor(
    private readonly fd: number,
    private readonly secrets: readonly string[],
  ) {}

  write(line: RunnerLine): void {
    let text = JSON.stringify(line);
    for (const s of this.secrets) if (s) text = text.split(s).join("[secret]");
    const bytes = Buffer.from(`${text}\n`);
    for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off);
  }

  /** A pass-through of one direction of the ACP stream that logs each frame as it goes by; `replay()` marks the frames of a session's history the agent replays. */
  tap(dir: "send" | "recv", replay: () => boolean = () => false): TransformStream<AnyMessage, AnyMessage> {
    return new TransformStream({
      transform: (msg, out) => {
        this.write(replay() ? { acp: dir, msg, replay: true } : { acp: dir, msg });
        out.enqueue(msg);
      },
    });
  }
}
