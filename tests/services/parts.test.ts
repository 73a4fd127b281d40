import { expect, test } from "bun:test";
import { TroupeError } from "../../src/errors.ts";
import { PartFailed, PartRunner, type Part } from "../../src/services/parts.ts";

/** Parts that write what they do to `log`; `fail` names one whose start throws, `failStop` one whose stop does. */
function recorded(names: string[], opts: { fail?: string; failStop?: string; log?: string[] } = {}): { parts: Part[]; log: string[] } {
  const log = opts.log ?? [];
  const parts = names.map((name) => ({
    name,
    start: () => {
      if (name === opts.fail) throw new TroupeError("store_version", `${name} broke\nsee the log`);
      log.push(`start ${name}`);
    },
    stop: () => {
      log.push(`stop ${name}`);
      if (name === opts.failStop) throw new Error(`${name} would not stop`);
    },
  }));
  return { parts, log };
}

const quiet = () => {};

test("parts start in the list's order and stop in reverse", async () => {
  const { parts, log } = recorded(["lock", "store", "server"]);
  const runner = new PartRunner(parts, "the daemon", quiet);
  await runner.start();
  expect(log).toEqual(["start lock", "start store", "start server"]);
  await runner.stop();
  expect(log.slice(3)).toEqual(["stop server", "stop store", "stop lock"]);
  await runner.stop();
  expect(log).toHaveLength(6);
});

test("a part that fails to start stops the started ones in reverse and names itself in one line, the cause's code kept", async () => {
  const { parts, log } = recorded(["lock", "store", "services", "server"], { fail: "services" });
  const runner = new PartRunner(parts, "the daemon", quiet);
  const err = await runner.start().then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PartFailed);
  expect((err as PartFailed).message).toBe("the daemon could not start (services): services broke see the log");
  expect((err as PartFailed).code).toBe("store_version");
  expect(log).toEqual(["start lock", "start store", "stop store", "stop lock"]);
  await runner.stop();
  expect(log).toHaveLength(4);
});

test("a part without a start or a stop takes its place in the order; one that fails to stop is reported and the rest stop", async () => {
  const log: string[] = [];
  const failures: string[] = [];
  const parts: Part[] = [
    { name: "first", start: () => void log.push("start first"), stop: () => void log.push("stop first") },
    { name: "late stop", stop: () => void log.push("stop late stop") },
    ...recorded(["second"], { failStop: "second", log }).parts,
    { name: "sweep", start: () => void log.push("start sweep") },
  ];
  const runner = new PartRunner(parts, "the daemon", (name, err) => failures.push(`${name}: ${(err as Error).message}`));
  await runner.start();
  await runner.stop();
  expect(log).toEqual(["start first", "start second", "start sweep", "stop second", "stop late stop", "stop first"]);
  expect(failures).toEqual(["second: second would not stop"]);
});

test("a part's own parts: an inner failure unwinds both lists and is named by its path; an async start is waited for", async () => {
  const log: string[] = [];
  const inner = new PartRunner(recorded(["follower", "agents", "dispatcher"], { fail: "dispatcher", log }).parts, "services", quiet);
  const parts: Part[] = [
    { name: "store", start: async () => void log.push("start store"), stop: () => void log.push("stop store") },
    { name: "services", start: () => inner.start(), stop: () => inner.stop() },
    { name: "server", start: () => void log.push("start server") },
  ];
  const err = await new PartRunner(parts, "the daemon", quiet).start().then(() => null, (e: unknown) => e);
  expect((err as PartFailed).message).toBe("the daemon could not start (services/dispatcher): dispatcher broke see the log");
  expect((err as PartFailed).part).toBe("services/dispatcher");
  expect(log).toEqual(["start store", "start follower", "start agents", "stop agents", "stop follower", "stop store"]);
});

test("a stop asked for during the start lets the part under way finish, starts no other, and stops what started", async () => {
  const log: string[] = [];
  let release!: () => void;
  const parts: Part[] = [
    { name: "a", start: () => void log.push("start a"), stop: () => void log.push("stop a") },
    { name: "slow", start: () => new Promise<void>((r) => (release = r)).then(() => void log.push("start slow")), stop: () => void log.push("stop slow") },
    { name: "never", start: () => void log.push("start never") },
  ];
  const runner = new PartRunner(parts, "the daemon", quiet);
  const started = runner.start();
  const stopped = runner.stop();
  release();
  await started;
  await stopped;
  expect(log).toEqual(["start a", "start slow", "stop slow", "stop a"]);
});
