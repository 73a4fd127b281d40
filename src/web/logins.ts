import { readFileSync } from "node:fs";
import { z } from "zod";
import { writePrivateFile } from "../file-modes.ts";
import { sha256Hex } from "../runtime/hash.ts";

/** How long a login URL works, unused: long enough to reach for a phone, short for a leaked link. */
const LOGIN_TOKEN_MS = 10 * 60_000;
/** How often a device's last use is written down (it is kept in memory at once). */
const SEEN_WRITE_MS = 60_000;
/** A login ends this long after it was made, whatever the cookie's own age says. */
const LOGIN_DAYS = 30;
export const LOGIN_MS = LOGIN_DAYS * 86_400_000;

/** A device logged in: what `troupe web logins` lists and `--revoke` ends. */
export interface Login {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  /** The browser's User-Agent at login, cut: which phone it is. */
  device: string;
}

const StoredSchema = z.object({
  logins: z.array(z.object({ id: z.string(), secretHash: z.string(), keyHash: z.string(), createdAt: z.number(), lastSeenAt: z.number(), device: z.string() })),
});
type Stored = z.infer<typeof StoredSchema>["logins"][number];

/** What a valid cookie stands for: the login, and the hash of the key its page must send with every API call. */
export interface Session {
  login: Login;
  keyHash: string;
}

/** Random bytes as base64url, from the platform's CSPRNG. */
function randomToken(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return Buffer.from(b).toString("base64url");
}

/**
 * The web page's logins (docs/web.md, "Access"). A login URL carries a one-time token, kept here
 * only as its hash, that works once within LOGIN_TOKEN_MS; redeemed, it becomes a device's login:
 * a cookie secret and a page key (both hashed here), for LOGIN_MS. The cookie alone is not the
 * login: a browser sends it to every port of the host, so a server an agent runs on another
 * port of 127.0.0.1 would get it. The key is handed to the page once, in the URL's fragment, and
 * kept in its origin's storage, which is the port's own. The logins live in a 0600 file
 * of the runtime folder, so a restart of `troupe web` keeps the phone logged in; pending tokens
 * live in memory only, so a restart voids every URL not yet used.
 */
export class LoginStore {
  private logins: Stored[];
  private readonly pending = new Map<string, number>();
  private seenWritten = 0;

  constructor(private readonly path: string) {
    this.logins = readLogins(path);
  }

  /** A new one-time token for a login URL. */
  mint(now = Date.now()): string {
    for (const [hash, until] of this.pending) if (until <= now) this.pending.delete(hash);
    const token = randomToken(24);
    this.pending.set(sha256Hex(token), now + LOGIN_TOKEN_MS);
    return token;
  }

  /** Redeems a token once: the cookie secret of a new login, or null (unknown, used or expired). */
  redeem(token: string, device: string, now = Date.now()): { secret: string; key: string; session: Session } | null {
    const hash = sha256Hex(token);
    const until = this.pending.get(hash);
    this.pending.delete(hash);
    if (until === undefined || until <= now) return null;
    const secret = randomToken(32);
    const key = randomToken(32);
    const stored: Stored = { id: `dev_${randomToken(6)}`, secretHash: sha256Hex(secret), keyHash: sha256Hex(key), createdAt: now, lastSeenAt: now, device: device.slice(0, 160) };
    this.logins.push(stored);
    this.write();
    return { secret, key, session: sessionOf(stored) };
  }

  /** The login a cookie secret belongs to (its last use noted), or null. */
  check(secret: string, now = Date.now()): Session | null {
    const hash = sha256Hex(secret);
    const stored = this.logins.find((l) => l.secretHash === hash);
    if (!stored) return null;
    if (now - stored.createdAt >= LOGIN_MS) {
      this.revoke(stored.id);
      return null;
    }
    stored.lastSeenAt = now;
    if (now - this.seenWritten > SEEN_WRITE_MS) this.write(now);
    return sessionOf(stored);
  }

  list(): Login[] {
    return this.logins.map((l) => sessionOf(l).login);
  }

  /** Ends a login: its cookie is refused from its next request on, and `ended` hears of it (its open streams close). False when there is none. */
  revoke(id: string): boolean {
    const before = this.logins.length;
    this.logins = this.logins.filter((l) => l.id !== id);
    if (this.logins.length === before) return false;
    this.write();
    this.ended?.(id);
    return true;
  }

  /** Told the id of each login that ends (revoked, logged out, expired). */
  ended: ((id: string) => void) | null = null;

  private write(now = Date.now()): void {
    this.seenWritten = now;
    writePrivateFile(this.path, `${JSON.stringify({ logins: this.logins })}\n`);
  }
}

function sessionOf(l: Stored): Session {
  return { login: { id: l.id, createdAt: l.createdAt, lastSeenAt: l.lastSeenAt, device: l.device }, keyHash: l.keyHash };
}

/** The logins kept by an earlier `troupe web`; a missing or damaged file is no login (each device logs in again). */
function readLogins(path: string): Stored[] {
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data.logins.filter((l) => Date.now() - l.createdAt < LOGIN_MS) : [];
  } catch {
    return [];
  }
}
