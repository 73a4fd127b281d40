// Picks the HTTP adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { serveTcp, serveUnix, unixFetch } from "#runtime/serve.ts";
export type { UnixServer } from "./contract.ts";
