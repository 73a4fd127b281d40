import { NotDelivered, type Exchange, type Transport } from "../../client/transport.ts";

/** The header every API call carries: the login's page key (src/web/logins.ts), kept in this origin's storage. */
export const KEY_HEADER = "x-troupe-key";

/**
 * One source's daemon as the page reaches it: through the web process (`/api/s/<label>/v1/...`),
 * which passes the request on as the person. The browser sends the login cookie and the page
 * sends its login's key; a 401 means the login is gone (revoked, expired, the key lost), which
 * the page shows.
 */
export class PageTransport implements Transport {
  constructor(
    readonly label: string,
    private readonly key: string,
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
        headers: { ...ex.headers, [KEY_HEADER]: this.key },
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
