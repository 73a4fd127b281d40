import { unixFetch } from "../runtime/serve.ts";
import { WORKSPACE_HEADER } from "../self.ts";

/** What a request carries to the daemon, whatever the way there. */
export interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * How a client reaches the daemon of its source: one HTTP exchange at a time, the reply as a
 * Response (its body streamed, for the event stream). The local source is the workspace's Unix
 * socket; another transport can speak the same HTTP over any byte stream (the stdio of an
 * `ssh host troupe proxy`). Each client talks to one source through one transport.
 */
export interface Transport {
  /** Where it goes, for messages ("no daemon answers on …"). */
  readonly address: string;
  /** One exchange. Rejects with `NotDelivered` when the request never reached a daemon. */
  send(path: string, ex: Exchange): Promise<Response>;
  /**
   * Brings the daemon up when none answered (`absent`), or when one of an older build stepped
   * aside (`outdated`); the request is then sent again. Absent: the client only reports.
   */
  start?(why: "absent" | "outdated"): Promise<void>;
}

/** The request never reached a daemon (no socket, or nobody listening): safe to send again, even a POST. */
export class NotDelivered extends Error {}

const UNDELIVERED = ["ECONNREFUSED", "ENOENT", "ConnectionRefused", "FailedToOpenSocket"];

/**
 * The workspace daemon's Unix socket. `socket` may change once: a client follows the socket the
 * daemon wrote in its lock file. `workspace`: the one the client resolved, named in every request,
 * so that a daemon of another (an inherited TROUPE_SOCKET) refuses it; none for a probe that asks
 * whose daemon it is.
 */
export class UnixSocketTransport implements Transport {
  start?: (why: "absent" | "outdated") => Promise<void>;

  constructor(
    public socket: string,
    readonly workspace?: string,
  ) {}

  get address(): string {
    return this.socket;
  }

  async send(path: string, ex: Exchange): Promise<Response> {
    try {
      const headers = this.workspace === undefined ? ex.headers : { ...ex.headers, [WORKSPACE_HEADER]: encodeURIComponent(this.workspace) };
      return await unixFetch(this.socket, `http://troupe${path}`, { ...ex, headers });
    } catch (err) {
      const code = (err as { code?: string } | null)?.code ?? "";
      throw UNDELIVERED.includes(code) ? new NotDelivered(code, { cause: err }) : err;
    }
  }
}
