export { UncommittedFollower, type CommitResumer } from "./follow-uncommitted.ts";
export { WorktreeReaper } from "./reaper.ts";
export { collectGarbage } from "./gc.ts";
