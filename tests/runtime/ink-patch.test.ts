import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { patchInkSource } from "../../src/runtime/ink-patch.ts";
// loaded through the test preload (src/runtime/bun/ink-preload.ts): the patched files, as the build ships them
import Output from "../../node_modules/ink/build/output.js";
import lineUpdate from "../../node_modules/ink/build/line-update.js";

/** Ink's file as published, loaded beside the patched one (a copy under another name: the preload patches only Ink's own). */
const stockCopies: string[] = [];
async function stock<T>(file: string): Promise<T> {
  const copy = join(import.meta.dir, `.stock-${file}`);
  writeFileSync(copy, readFileSync(join(import.meta.dir, "../../node_modules/ink/build", file)));
  stockCopies.push(copy);
  return ((await import(copy)) as { default: T }).default;
}
afterAll(() => {
  for (const c of stockCopies) rmSync(c, { force: true });
});

type Transformer = (line: string, index: number) => string;
interface Write {
  x: number;
  y: number;
  text: string;
  transformers: Transformer[];
}
interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
type Op = { write: Write } | { clip: Clip } | { unclip: true };

interface PatchedOutput {
  write(x: number, y: number, text: string, o: { transformers: Transformer[] }): void;
  clip(c: Clip): void;
  unclip(): void;
  get(): { output: string; height: number };
}
const OutputClass = Output as unknown as new (o: { width: number; height: number; previous?: PatchedOutput }) => PatchedOutput;

function build(width: number, height: number, ops: Op[], previous?: PatchedOutput, Class = OutputClass): PatchedOutput {
  const out = new Class({ width, height, previous });
  for (const op of ops) {
    if ("write" in op) out.write(op.write.x, op.write.y, op.write.text, { transformers: op.write.transformers });
    else if ("clip" in op) out.clip(op.clip);
    else out.unclip();
  }
  return out;
}

/** A small deterministic random source, so that a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const red: Transformer = (l) => `\x1b[31m${l}\x1b[39m`;
const bold: Transformer = (l) => `\x1b[1m${l}\x1b[22m`;
const numbered: Transformer = (l, i) => `${i}${l}`;
// as Ink's <Text> with no style: the line as it is (a styled line kept as cells keeps them)
const unstyled: Transformer = (l) => l;
const TEXTS = [
  "hello",
  "wörld · 世界",
  "│\n│\n│",
  "a\x1b[32mgreen\x1b[39m b",
  "line one\nline two",
  "x",
  "🙂 wide",
  "tab\tstop",
  "\x1b[2mdim \x1b[1mand bold\x1b[22m \x1b[31;1mred\x1b[0m",
  "\x1b[36m› ●\x1b[39m name \x1b[90mgray\x1b[39m",
  // styled lines that read back otherwise once joined into a string: a code closed and opened
  // again comes back last; a mark after an escape; a link; an invisible cell; styled wide cells
  "\x1b[1mA\x1b[22m\x1b[31m\x1b[1mB\x1b[39m tail\x1b[22m",
  "e\x1b[31m\u0301\x1b[39m é",
  "\x1b]8;;https://x.y\x07link\x1b]8;;\x07 \x1b[4mu\x1b[24m",
  "a\x1b[31m\u200B\x1b[39mb",
  "e\u200B\u0301 mark: a cell of its own until joined to the e",
  "\x1b[32m世界 wide\x1b[39m\n\x1b[7m世 界\x1b[27m",
  "\x1b[38;5;123m256\x1b[39m \x1b[48;2;1;2;3mrgb\x1b[49m\nnext \x1b[1mline",
];

describe("Ink's output pass reuses the rows that did not change (patches/ink+8.0.0.patch)", () => {
  test("every frame built on the previous one reads as the same frame built afresh, and as Ink's own Output builds it", async () => {
    const Stock = await stock<typeof OutputClass>("output.js");
    expect(String(Stock.prototype.get)).not.toContain("rowKeys"); // Ink's own, unpatched
    for (let seed = 1; seed <= 120; seed++) {
      const r = random(seed);
      const width = 20 + Math.floor(r() * 30);
      const height = 3 + Math.floor(r() * 8);
      const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
      const makeOps = (): Op[] => {
        const ops: Op[] = [];
        let depth = 0;
        for (let i = 0; i < 8; i++) {
          const roll = r();
          if (roll < 0.15) {
            ops.push({ clip: { x1: Math.floor(r() * 5), x2: width - Math.floor(r() * 8), y1: r() < 0.5 ? undefined : Math.floor(r() * 2), y2: r() < 0.5 ? undefined : height - 1 } });
            depth++;
          } else if (roll < 0.25 && depth > 0) {
            ops.push({ unclip: true });
            depth--;
          } else {
            ops.push({ write: { x: Math.floor(r() * width) - 2, y: Math.floor(r() * (height + 2)) - 1, text: pick(TEXTS), transformers: r() < 0.4 ? [] : [pick([red, bold, numbered, unstyled, unstyled])] } });
          }
        }
        while (depth-- > 0) ops.push({ unclip: true });
        return ops;
      };
      let ops = makeOps();
      let previous: PatchedOutput | undefined;
      for (let frame = 0; frame < 6; frame++) {
        // the next frame changes a few writes and keeps the rest, as a render after one update does
        if (frame > 0) ops = ops.map((op) => ("write" in op && r() < 0.3 ? { write: { ...op.write, text: pick(TEXTS) } } : op));
        const reused = build(width, height, ops, previous);
        const fresh = build(width, height, ops);
        const published = build(width, height, ops, undefined, Stock);
        const drawn = reused.get();
        expect(drawn).toEqual(fresh.get());
        expect(drawn).toEqual(published.get());
        previous = reused;
      }
    }
  });

  test("a row whose writes are the frame before's is not built again; a changed row builds only the writes that changed", () => {
    let calls = 0;
    const counting: Transformer = (l) => {
      calls++;
      return l;
    };
    const frame = (second: string, previous?: PatchedOutput) =>
      build(30, 3, [{ write: { x: 0, y: 0, text: "the first row", transformers: [counting] } }, { write: { x: 0, y: 1, text: second, transformers: [counting] } }], previous);
    const one = frame("the second row");
    expect(one.get().output).toBe("the first row\nthe second row\n");
    calls = 0;
    const two = frame("the second row, changed", one);
    expect(two.get().output).toBe("the first row\nthe second row, changed\n");
    expect(calls).toBe(1);
    // two writes on one row, one of them changed: the other's cells come from the frame before
    const row = (right: string, previous?: PatchedOutput) =>
      build(30, 1, [{ write: { x: 0, y: 0, text: "left", transformers: [counting] } }, { write: { x: 10, y: 0, text: right, transformers: [counting] } }], previous);
    const three = row("right");
    three.get();
    calls = 0;
    expect(row("right, changed", three).get().output).toBe("left      right, changed");
    expect(calls).toBe(1);
  });

  test("every text at every cut reads as Ink's own Output draws it (a styled line kept as cells is cut as Ink cuts its string)", async () => {
    const Stock = await stock<typeof OutputClass>("output.js");
    for (const text of TEXTS) {
      for (let x = -3; x <= 3; x++) {
        for (const clip of [undefined, { x1: 0, x2: 12 }, { x1: 1, x2: 6 }, { x1: 2, x2: 9 }, { x1: 3, x2: 4 }]) {
          for (const transformers of [[], [unstyled], [red], [numbered, bold]]) {
            const ops: Op[] = clip ? [{ clip }, { write: { x, y: 0, text, transformers } }, { unclip: true }] : [{ write: { x, y: 0, text, transformers } }];
            expect(build(16, 2, ops).get()).toEqual(build(16, 2, ops, undefined, Stock).get());
          }
        }
      }
    }
  });

  test("a styled line is tokenized once: clipped and written as cells, never joined into a string and tokenized again", () => {
    const text = "\x1b[36m› ●\x1b[39m a long agent name \x1b[90mits task, cut at the clip\x1b[39m";
    const out = new OutputClass({ width: 30, height: 1 }) as unknown as PatchedOutput & { caches: { styledChars: Map<string, unknown> } };
    out.clip({ x1: 0, x2: 20 });
    out.write(0, 0, text, { transformers: [unstyled] });
    out.unclip();
    expect(out.get().output).toBe("\x1b[36m› ●\x1b[39m a long agent nam");
    // the text's own tokenization, and no other: Ink tokenizes the clipped line again, twice
    expect([...out.caches.styledChars.keys()]).toEqual([text]);
  });

  test("a changed line is redrawn from where it differs, as Ink's own lineUpdate does, without segmenting text of single code points", async () => {
    const stockLineUpdate = await stock<typeof lineUpdate>("line-update.js");
    let seed = 3;
    const r = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const pool = ["a", "b", " ", "│", "─", "›", "●", "✓", "é", "世", "界", "\x1b[32m", "\x1b[39m", "\x1b[1m", "\x1b[22m", "🙂", "e\u0301"];
    const line = (n: number) => Array.from({ length: n }, () => pool[Math.floor(r() * pool.length)]).join("");
    for (let i = 0; i < 2000; i++) {
      const prefix = line(Math.floor(r() * 12));
      const before = prefix + line(Math.floor(r() * 8));
      const after = prefix + line(Math.floor(r() * 8));
      expect(lineUpdate(before, after, 80)).toBe(stockLineUpdate(before, after, 80));
    }
  });

  test("plain text gets the cells tokenizing would give it, without segmenting", () => {
    // every range of the plain class, its edges and a few inside, and what is next to it
    const pool = [" ", "~", "a", "Z", "\u00A0", "\u00AC", "\u00AE", "é", "\u02FF", "\u0370", "Ω", "\u0482", "\u048A", "ж", "\u052F", "\u2010", "\u2027", "\u2030", "\u205E", "\u2190", "→", "│", "●", "\u231A", "\u23E9", "\u2614", "\u26A1", "\u2B50", "\u2BFF", "\u3000", "\u3029", "\u3030", "\u303F", "\u4E00", "世", "\u9FFF"];
    let seed = 7;
    const r = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const caches = () => (new OutputClass({ width: 1, height: 1 }) as unknown as { caches: { getStyledChars(line: string): unknown[] } }).caches;
    for (let i = 0; i < 500; i++) {
      const line = Array.from({ length: 1 + Math.floor(r() * 20) }, () => pool[Math.floor(r() * pool.length)]).join("");
      const plain = caches().getStyledChars(line);
      // the same line with an escape in it is not plain: it goes through tokenize
      const tokenized = caches().getStyledChars(`${line}\x1b[39m`);
      expect(plain).toEqual(tokenized);
    }
  });

  test("a frame of another height is built whole", () => {
    const one = build(10, 2, [{ write: { x: 0, y: 0, text: "abc", transformers: [] } }]);
    one.get();
    expect(build(10, 3, [{ write: { x: 0, y: 2, text: "abc", transformers: [] } }], one).get()).toEqual({ output: "\n\nabc", height: 3 });
  });

  test("the patch applies to the Ink that is installed, and a file it does not touch stays as it is", () => {
    const path = join(import.meta.dir, "../../node_modules/ink/build/renderer.js");
    expect(patchInkSource(path, readFileSync(path, "utf8"))).toContain("internal_previousOutput");
    expect(patchInkSource("/x/node_modules/ink/build/ink.js", "unchanged")).toBe("unchanged");
    expect(() => patchInkSource(path, "not Ink's renderer")).toThrow(/does not apply/);
  });
});
