// The one line that picks the HTTP adapter (see contract.ts).
export { serveUnix, unixFetch } from "./bun/serve.ts";
export type { UnixServer } from "./contract.ts";
