import { rmSync } from "node:fs";
import { TroupeError, errorMessage } from "../errors.ts";
import { closeSources, resolveSources, type SourceFlags } from "../client/sources.ts";
import { tryLock } from "../runtime/flock.ts";
import { serveTcp, serveUnix } from "../runtime/serve.ts";
import { sourceLabels, sourceTitle } from "../ui/sources/source-names.ts";
import { controlSocket, loginsFile, webLock, type WebStatus } from "./control.ts";
import { jsonError } from "./forward.ts";
import { LoginStore } from "./logins.ts";
import { webHandler, type WebSource } from "./server.ts";

export interface WebSettings {
  host: string;
  port: number;
  /** The address a phone will use (an `ssh -L` port, a Tailscale name, a tunnel); the login URL is built on it. */
  publicUrl: string | null;
  sources: SourceFlags;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || host.startsWith("127.");
const urlHost = (host: string) => (host.includes(":") ? `[${host}]` : host);

/** The public URL as given, checked: an http(s) URL, its origin what a browser will send. */
export function publicOrigin(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TroupeError("usage", `--public-url ${url} is not a URL (like https://box.tailnet.ts.net or http://127.0.0.1:8377)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new TroupeError("usage", `--public-url ${url} must be http:// or https://`);
  return u.origin;
}

/**
 * `troupe web run`: the web process in the foreground (`troupe web start` runs it detached). It
 * follows the sources the dashboard would, through the same clients and links; serves the page
 * on `host:port`; answers `troupe web login` and the rest on its control socket. One per person
 * on a machine (a lock in the runtime folder). Ends on SIGTERM or `troupe web stop`.
 */
export async function runWeb(s: WebSettings): Promise<number> {
  const origin0 = s.publicUrl ? publicOrigin(s.publicUrl) : null;
  if (!origin0 && (s.host === "0.0.0.0" || s.host === "::")) throw new TroupeError("usage", `--host ${s.host} listens on every address: give --public-url, the address the phone uses (its login link and origin)`);
  const lock = tryLock(webLock());
  if (!lock) throw new TroupeError("invalid_state", "troupe web already runs (troupe web status; troupe web stop)");
  const { readRemotes } = await import("../remotes.ts");
  const found = await resolveSources(s.sources, s.sources.all || s.sources.remotes?.length ? readRemotes() : {});
  const labels = sourceLabels(found);
  const sources: WebSource[] = found.map((src, i) => ({ label: labels[i]!, title: sourceTitle(src), remote: src.kind === "remote", transport: src.client.transport }));
  const logins = new LoginStore(loginsFile());
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;

  let handle: ReturnType<typeof webHandler> | null = null;
  const error = (err: Error) => jsonError(500, "internal", errorMessage(err));
  const server = serveTcp({ hostname: s.host, port: s.port, fetch: (req, conn) => handle!(req, conn), error });
  const listened = `http://${urlHost(s.host)}:${server.port}`;
  const origin = origin0 ?? listened;
  const also = [listened, ...(isLoopback(s.host) ? ["127.0.0.1", "localhost", "[::1]"].map((h) => `http://${h}:${server.port}`) : [])];
  handle = webHandler({ sources, logins, origin, alsoOrigins: also, env });

  const startedAt = Date.now();
  let done: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (done = resolve));
  const status = (): WebStatus => ({ pid: process.pid, origin, host: s.host, port: server.port, sources: sources.map((x) => ({ label: x.label, title: x.title })), logins: logins.list().length, startedAt });
  rmSync(controlSocket(), { force: true });
  const control = serveUnix({
    socket: controlSocket(),
    error,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "GET" && path === "/status") return Response.json(status());
      if (req.method === "POST" && path === "/login") return Response.json({ url: `${origin}/login?t=${logins.mint()}` });
      if (req.method === "GET" && path === "/logins") return Response.json(logins.list());
      const revoke = /^\/logins\/([^/]+)\/revoke$/.exec(path);
      if (req.method === "POST" && revoke) return logins.revoke(decodeURIComponent(revoke[1]!)) ? Response.json({ ok: true }) : jsonError(404, "not_found", `no login ${decodeURIComponent(revoke[1]!)} (troupe web logins)`);
      if (req.method === "POST" && path === "/stop") {
        setTimeout(() => done(0), 50);
        return Response.json({ ok: true });
      }
      return jsonError(404, "not_found", `no such control route: ${req.method} ${path}`);
    },
  });
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(sig, () => done(0));
  process.stdout.write(`troupe web: listening on ${listened}${origin0 ? ` (reached at ${origin})` : ""}, following ${sources.map((x) => x.label).join(", ")}\n`);
  const code = await ended;
  server.stop(true);
  control.stop(true);
  rmSync(controlSocket(), { force: true });
  closeSources(found);
  lock.release();
  return code;
}
