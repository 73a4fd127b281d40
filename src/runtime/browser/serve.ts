import type { ServeTcp, ServeUnix, UnixFetch } from "../contract.ts";

/** A page reaches its daemons through the web process (src/web/), over HTTP: no Unix socket in a browser. */
const none = (): never => {
  throw new Error("a web page has no Unix socket: its requests go through troupe web");
};

export const serveUnix: ServeUnix = none;
export const serveTcp: ServeTcp = none;
export const unixFetch: UnixFetch = none;
