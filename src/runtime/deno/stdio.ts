import type { WriteStdio } from "../contract.ts";
import { Deno } from "./api.ts";

// Deno's errors carry Node's codes (WouldBlock: EAGAIN, BrokenPipe: EPIPE)
export const writeStdio: WriteStdio = (fd, bytes) => (fd === 1 ? Deno.stdout : Deno.stderr).writeSync(bytes);
