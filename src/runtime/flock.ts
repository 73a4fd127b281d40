// The one line that picks the lock adapter (see contract.ts).
export { tryLockFd } from "./bun/flock.ts";
