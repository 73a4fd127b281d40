import { NotDelivered, type Exchange, type Transport } from "../../client/transport.ts";

/** The header a change carries: the login's own CSRF token (src/web/logins.ts), from the page's shell. */
export const CSRF_HEADER = "x-troupe-csrf";

/**
 * One source's daemon as the page reaches it: through the web process (`/api/s/<label>/v1/...`),
 * which passes the request on as the person. The browser sends the login cookie (same origin
 * only) and the login's CSRF token; a 401 means the login is gone (revoked, or the process
 * restarted without it), which the page shows.
 */
export class PageTransport implements Transport {
  constructor(
    readonly label: string,
    private readonly csrf: string,
    private readonly loggedOut: () => void,
  ) {}

  get address(): string {
    return `troupe web (${this.label})`;
  }

  async send(path: string, ex: Exchange): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`/api/s/${encodeURIComponent(this.label)}${path}`, {
        method: ex.method,
        headers: { ...ex.headers, [CSRF_HEADER]: this.csrf },
        body: ex.body,
        signal: ex.signal,
        credentials: "same-origin",
      });
    } catch (err) {
      if (ex.signal?.aborted) throw err;
      throw new NotDelivered(err instanceof Error ? err.message : String(err));
    }
    if (res.status === 401) this.loggedOut();
    return res;
  }
}
