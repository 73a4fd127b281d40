export { UncommittedFollower } from "./follow-uncommitted.ts";
export { WorktreeReaper } from "./reaper.ts";
export { collectGarbage } from "./gc.ts";
