/**
 * The part of Deno's own API this adapter uses, typed here rather than through Deno's whole
 * lib (the project type-checks with tsc and Bun's types); the same global at run time.
 */
interface FsFile {
  /** flock(LOCK_EX | LOCK_NB) with `exclusive`; false while another open of the file holds a lock. */
  tryLockSync(exclusive?: boolean): boolean;
  close(): void;
}

export interface HttpClient {
  close(): void;
}

interface HttpServer {
  /** Stops listening and resolves once every request in flight is answered. */
  shutdown(): Promise<void>;
  /** Where a TCP server listens. */
  addr?: { port?: number };
}

interface ServeTcpOptions {
  hostname: string;
  port: number;
  signal?: AbortSignal;
  handler(req: Request, info: { remoteAddr: { hostname: string } }): Response | Promise<Response>;
  onError?(err: unknown): Response | Promise<Response>;
  onListen?(addr: unknown): void;
}

interface ServeUnixOptions {
  path: string;
  signal?: AbortSignal;
  handler(req: Request): Response | Promise<Response>;
  onError?(err: unknown): Response | Promise<Response>;
  onListen?(addr: unknown): void;
}

type ForeignType = "i32" | "u32" | "i64" | "u64" | "buffer";
export type ForeignSymbols = Record<string, { parameters: readonly ForeignType[]; result: ForeignType; nonblocking?: boolean }>;

export interface DenoApi {
  version: { deno: string };
  stdout: { writeSync(bytes: Uint8Array): number };
  stderr: { writeSync(bytes: Uint8Array): number };
  build: { os: string; arch: string };
  mainModule: string;
  /** The command line after `deno run`'s flags and the script. */
  args: readonly string[];
  env: { get(name: string): string | undefined };
  pid: number;
  cwd(): string;
  uid(): number | null;
  exit(code: number): never;
  execPath(): string;
  openSync(path: string, options: { read?: boolean; append?: boolean; create?: boolean; mode?: number }): FsFile;
  serve(options: ServeUnixOptions): HttpServer;
  serve(options: ServeTcpOptions): HttpServer;
  createHttpClient(options: { proxy: { transport: "unix"; path: string } }): HttpClient;
  dlopen(path: string, symbols: ForeignSymbols): { symbols: unknown };
}

export const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
