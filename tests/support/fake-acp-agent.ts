/**
 * A stand-in ACP agent that misbehaves on purpose, for the runner's bad-input tests: it speaks
 * newline-delimited JSON-RPC on stdio by hand (no SDK, so it can break the protocol), answers
 * initialize and session/new, and turns its one prompt into what its mode (argv[2]) says:
 * ok, garbage (a line that is no JSON), huge (one 40 MB line), unknown (a request of a method no
 * client has), foreign (a permission request for another session), late (an update after its
 * turn ended), die (exit 3 mid-turn), silent (never answers initialize).
 */
const mode = process.argv[2] ?? "ok";
const out = (msg: unknown) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const chunk = (text: string) => out({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } } });

let buffer = "";
process.stdin.on("data", (d: Buffer) => {
  buffer += d.toString("utf8");
  let nl: number;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) onMessage(JSON.parse(line) as { id?: number | string; method?: string; result?: unknown; error?: unknown });
  }
});
process.stdin.on("end", () => process.exit(0));

function onMessage(m: { id?: number | string; method?: string; result?: unknown; error?: unknown }): void {
  if (m.method === "initialize") {
    if (mode !== "silent") out({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  } else if (m.method === "session/new") {
    out({ jsonrpc: "2.0", id: m.id, result: { sessionId: "s1" } });
  } else if (m.method === "session/prompt") {
    prompt(m.id!);
  } else if (m.id === "x1" || m.id === "p1") {
    // the runner's answer to the request of our own: the turn ends after it
    chunk(`answered ${m.error ? "with an error" : "ok"}`);
    out({ jsonrpc: "2.0", id: pending, result: { stopReason: "end_turn" } });
  }
}

let pending: number | string = 0;
function prompt(id: number | string): void {
  pending = id;
  switch (mode) {
    case "garbage":
      process.stdout.write("this is {not json\n");
      chunk("after garbage");
      out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
      return;
    case "huge":
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x".repeat(40 * 1024 * 1024) } } } })}\n`);
      return;
    case "unknown":
      out({ jsonrpc: "2.0", id: "x1", method: "made/up", params: {} });
      return;
    case "foreign":
      out({ jsonrpc: "2.0", id: "p1", method: "session/request_permission", params: { sessionId: "someone-else", options: [{ optionId: "y", name: "Yes", kind: "allow_once" }], toolCall: { toolCallId: "t1", title: "rm -rf /", kind: "execute" } } });
      return;
    case "late":
      out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
      chunk("late words");
      return;
    case "die":
      chunk("dying");
      setTimeout(() => process.exit(3), 50);
      return;
    default:
      chunk("hello");
      out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
  }
}
