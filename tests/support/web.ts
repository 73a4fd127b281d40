import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "./sandbox.ts";

/** A `troupe web` of a sandbox's: where it is reached, and a fresh login link. */
export interface Web {
  origin: string;
  /** Prints a new one-time login link (`troupe web login`). */
  login(): Promise<string>;
  stop(): Promise<void>;
}

const LINK = /log in \(once, within 10 minutes\): (\S+)/;

/**
 * Starts `troupe web start --port 0` for the sandbox's workspace (and `args`), with a runtime
 * folder of the sandbox's own (its lock, control socket and logins), and returns it once it answers.
 */
export async function startWeb(sb: Sandbox, args: string[] = []): Promise<Web & { firstLogin: string }> {
  const run = join(sb.runtime, "run");
  mkdirSync(run, { recursive: true, mode: 0o700 });
  sb.env.XDG_RUNTIME_DIR = run;
  const r = await sb.run(["web", "start", "--port", "0", ...args]);
  const link = LINK.exec(r.stdout)?.[1];
  if (r.code !== 0 || !link) throw new Error(`troupe web start failed (${r.code}): ${r.stdout}${r.stderr}`);
  const origin = new URL(link).origin;
  return {
    origin,
    firstLogin: link,
    login: async () => {
      const l = await sb.run(["web", "login"]);
      const url = LINK.exec(l.stdout)?.[1];
      if (!url) throw new Error(`troupe web login: ${l.stdout}${l.stderr}`);
      return url;
    },
    stop: async () => {
      await sb.run(["web", "stop"]);
    },
  };
}

/** What a login gives a browser: the cookie header to send, and the page key its page sends on every API call. */
export interface LoggedIn {
  cookie: string;
  key: string;
  /** Both headers of an API call (and the origin a change needs). */
  headers: Record<string, string>;
}

/** Logs in with a link as a browser's form would (its origin): the cookie, and the key the redirect's fragment carries. */
export async function logIn(link: string): Promise<LoggedIn> {
  const u = new URL(link);
  const res = await fetch(`${u.origin}/login`, { method: "POST", headers: { origin: u.origin, "content-type": "application/x-www-form-urlencoded" }, body: `t=${u.searchParams.get("t")}`, redirect: "manual" });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  const key = /^\/#k=([\w-]+)$/.exec(res.headers.get("location") ?? "")?.[1];
  if (res.status !== 303 || !cookie || !key) throw new Error(`login refused: ${res.status}`);
  return { cookie, key, headers: { cookie, "x-troupe-key": key, origin: u.origin } };
}
