import { afterAll, beforeAll } from "bun:test";
import { Sandbox } from "./sandbox.ts";

/**
 * One sandbox a whole test file shares: made before its first test (with its daemon started, for
 * `daemon`), closed after its last. What it returns stands for that sandbox from the first test on.
 */
export function fileSandbox(opts: { daemon?: boolean } = {}): Sandbox {
  let current: Sandbox | undefined;
  beforeAll(async () => {
    current = new Sandbox();
    if (opts.daemon) await current.run(["daemon", "start"]);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as Sandbox, {
    get(_, key) {
      if (!current) throw new Error("the file's sandbox is made before its first test: use it inside a test or hook");
      const value: unknown = Reflect.get(current, key, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
