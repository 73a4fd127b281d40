import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { MAX_ARG_STRLEN, assertWithinArgLimit } from "../../../src/agents/processes/arg-limit.ts";
import { launchSession, sessionFiles } from "../../../src/agents/processes/launch-detached.ts";
import { TroupeError } from "../../../src/errors.ts";

function refusal(fn: () => unknown): TroupeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TroupeError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("assertWithinArgLimit", () => {
  test("an ordinary command and environment pass", () => {
    assertWithinArgLimit(["sh", "-c", "echo hi"], { PATH: "/usr/bin", HOME: "/root" });
    assertWithinArgLimit(["sh", "-c", "x".repeat(MAX_ARG_STRLEN - 1)], {});
  });

  test("one argument over the kernel's per-string limit is refused, counted in bytes", () => {
    const e = refusal(() => assertWithinArgLimit(["sh", "-c", `echo ${"a".repeat(200_000)}`], {}));
    expect(e.code).toBe("bad_request");
    expect(e.message).toBe(`the command line is too long for the kernel: one argument (echo ${"a".repeat(34)}…) is 200,006 bytes, at most 131,072 bytes fit; pass long text through a file`);
    // 50,000 three-byte characters: 150,000 bytes though only 50,000 characters
    expect(() => assertWithinArgLimit(["x", "€".repeat(50_000)], {})).toThrow(/150,001 bytes/);
  });

  test("an environment variable over it is named", () => {
    expect(() => assertWithinArgLimit(["true"], { BIG: "v".repeat(MAX_ARG_STRLEN) })).toThrow(
      "the environment variable BIG is too long for the kernel: 131,077 bytes, at most 131,072 bytes fit; pass long text through a file",
    );
  });

  test("many strings, each within the limit, over the total are refused", () => {
    const env = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`V${i}`, "v".repeat(120_000)]));
    expect(() => assertWithinArgLimit(["true"], env)).toThrow(/^the command line and environment are too long for the kernel: 2,4\d\d,\d\d\d bytes, at most 2,097,152 bytes fit/);
  });
});

describe("launchSession", () => {
  test("E2BIG from the kernel becomes a clear bad_request, not a crash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "troupe-e2big-"));
    const launch = launchSession({ argv: ["sh", "-c", `echo ${"a".repeat(200_000)}`] }, dir, { PATH: "/usr/bin:/bin" }, sessionFiles(dir, 1));
    const err = await launch.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(TroupeError);
    expect((err as TroupeError).code).toBe("bad_request");
    expect((err as TroupeError).message).toBe("could not start sh: the command line and environment are too long for the kernel (E2BIG); pass long text through a file");
  });
});
