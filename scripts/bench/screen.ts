/**
 * What a terminal shows after the bytes a frame benchmark's program wrote (frame-harness.tsx): a
 * grid of cells, the cursor, and the rows the last write touched. A keypress's frame is recognised
 * on the screen, not in the bytes: with incremental rendering Ink writes a changed line from its
 * first changed column (`\e[<col>G\e[K` and the rest), so the bytes of a frame need not hold the
 * text that identifies it. Synchronous and small on purpose: a frame is recognised at the write
 * that completes it, and its cost is measured (`ms`) and left out of the harness's CPU figures.
 *
 * Reads what Ink, its log-update and the dashboard's in-place repaint (src/ui/kit/terminal/repaint.ts)
 * write: printable text (a wide character takes two cells), CR, LF (as CR LF, as a terminal's output
 * processing makes it; scrolling at the bottom), BS,
 * TAB; CSI cursor moves (A B C D E F G H f d), erase in display and line (J K), the alternate
 * screen (?1049h/l, ?47, ?1047: cleared); ESC 7 / ESC 8; SGR and other CSI, OSC and ESC sequences
 * change no cell and are skipped. Not a terminal: no attributes, no scroll regions, no insert mode.
 */
import { eastAsianWidth } from "get-east-asian-width";

const BLANK = " ";
const COMBINING = /^[\p{M}\u200B-\u200F\u2060\uFE00-\uFE0F]$/u;

export class Screen {
  private readonly cells: string[][];
  private x = 0;
  private y = 0;
  private saved = { x: 0, y: 0 };
  /** Rows changed since `takeDirty`. */
  private dirty = new Set<number>();
  /** CPU milliseconds spent reading writes (left out of the CPU figures). */
  ms = 0;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.cells = Array.from({ length: rows }, () => new Array<string>(columns).fill(BLANK));
  }

  /** Row `y` as shown, trailing blanks removed (the second cell of a wide character is not shown). */
  row(y: number): string {
    return this.cells[y]!.join("").trimEnd();
  }

  /** The rows changed since the last call, and forgets them. */
  takeDirty(): number[] {
    const rows = [...this.dirty];
    this.dirty.clear();
    return rows;
  }

  write(data: string): void {
    const t0 = process.cpuUsage();
    for (let i = 0; i < data.length; ) {
      const c = data.charCodeAt(i);
      if (c === 0x1b) i = this.escape(data, i);
      else if (c < 0x20 || c === 0x7f) {
        this.control(c);
        i++;
      } else {
        const cp = data.codePointAt(i)!;
        const ch = String.fromCodePoint(cp);
        this.print(ch, cp);
        i += ch.length;
      }
    }
    const t = process.cpuUsage(t0);
    this.ms += (t.user + t.system) / 1000;
  }

  private print(ch: string, cp: number): void {
    if (cp >= 0x300 && COMBINING.test(ch)) return; // joins the cell before: no cell of its own
    const width = cp < 0x1100 ? 1 : eastAsianWidth(cp) === 2 || (cp >= 0x1f300 && cp <= 0x1faff) ? 2 : 1;
    if (this.x + width > this.columns) {
      // the cursor waited past the last column: the text wraps to the next line
      this.x = 0;
      this.lineFeed();
    }
    const row = this.cells[this.y]!;
    row[this.x] = ch;
    if (width === 2 && this.x + 1 < this.columns) row[this.x + 1] = "";
    this.dirty.add(this.y);
    this.x += width;
  }

  private control(c: number): void {
    if (c === 0x0d) this.x = 0;
    else if (c === 0x0a || c === 0x0b || c === 0x0c) {
      // a terminal's output processing (ONLCR, on in raw mode too) makes a newline a CR LF
      this.x = 0;
      this.lineFeed();
    }
    else if (c === 0x08) this.x = Math.max(0, Math.min(this.x, this.columns - 1) - 1);
    else if (c === 0x09) this.x = Math.min(this.columns - 1, (Math.floor(this.x / 8) + 1) * 8);
  }

  private lineFeed(): void {
    if (this.y < this.rows - 1) {
      this.y++;
      return;
    }
    this.cells.push(this.cells.shift()!.fill(BLANK));
    for (let y = 0; y < this.rows; y++) this.dirty.add(y);
  }

  /** Reads the escape sequence at `i`; the index after it. */
  private escape(data: string, i: number): number {
    const next = data[i + 1];
    if (next === "[") {
      let j = i + 2;
      while (j < data.length && (data.charCodeAt(j) < 0x40 || data.charCodeAt(j) > 0x7e)) j++;
      if (j < data.length) this.csi(data.slice(i + 2, j), data[j]!);
      return j + 1;
    }
    if (next === "]" || next === "P" || next === "_" || next === "^") {
      // OSC / DCS / APC / PM: up to BEL or ST
      for (let j = i + 2; j < data.length; j++) {
        if (data.charCodeAt(j) === 0x07) return j + 1;
        if (data.charCodeAt(j) === 0x1b && data[j + 1] === "\\") return j + 2;
      }
      return data.length;
    }
    if (next === "7") this.saved = { x: this.x, y: this.y };
    else if (next === "8") ({ x: this.x, y: this.y } = this.saved);
    else if (next === "c") this.erase(0, 0, this.rows, this.columns);
    // ESC ( B and the like: a designator and its charset
    if (next === "(" || next === ")" || next === "#") return i + 3;
    return i + 2;
  }

  private csi(params: string, final: string): void {
    const priv = params.startsWith("?");
    const ns = (priv ? params.slice(1) : params).split(";").map((p) => (p === "" ? NaN : Number(p)));
    const n = Number.isFinite(ns[0]) ? ns[0]! : 0;
    const count = Math.max(1, n);
    const clampX = (x: number) => Math.max(0, Math.min(this.columns - 1, x));
    const clampY = (y: number) => Math.max(0, Math.min(this.rows - 1, y));
    if (priv) {
      if ((final === "h" || final === "l") && ns.some((m) => m === 1049 || m === 1047 || m === 47)) this.erase(0, 0, this.rows, this.columns);
      return;
    }
    switch (final) {
      case "A":
        this.y = clampY(this.y - count);
        this.x = Math.min(this.x, this.columns - 1);
        break;
      case "B":
      case "e":
        this.y = clampY(this.y + count);
        this.x = Math.min(this.x, this.columns - 1);
        break;
      case "C":
      case "a":
        this.x = clampX(this.x + count);
        break;
      case "D":
        this.x = clampX(Math.min(this.x, this.columns - 1) - count);
        break;
      case "E":
        this.y = clampY(this.y + count);
        this.x = 0;
        break;
      case "F":
        this.y = clampY(this.y - count);
        this.x = 0;
        break;
      case "G":
      case "`":
        this.x = clampX(count - 1);
        break;
      case "d":
        this.y = clampY(count - 1);
        break;
      case "H":
      case "f":
        this.y = clampY(count - 1);
        this.x = clampX(Math.max(1, Number.isFinite(ns[1]) ? ns[1]! : 1) - 1);
        break;
      case "J": {
        const x = Math.min(this.x, this.columns - 1);
        if (n === 0) {
          this.erase(this.y, x, this.y + 1, this.columns);
          this.erase(this.y + 1, 0, this.rows, this.columns);
        } else if (n === 1) {
          this.erase(0, 0, this.y, this.columns);
          this.erase(this.y, 0, this.y + 1, x + 1);
        } else this.erase(0, 0, this.rows, this.columns);
        break;
      }
      case "K": {
        const x = Math.min(this.x, this.columns - 1);
        if (n === 0) this.erase(this.y, x, this.y + 1, this.columns);
        else if (n === 1) this.erase(this.y, 0, this.y + 1, x + 1);
        else this.erase(this.y, 0, this.y + 1, this.columns);
        break;
      }
      default: // SGR and anything else: no cell changes
    }
  }

  /** Blanks rows `y1`..`y2` (exclusive), columns `x1`..`x2` (exclusive). */
  private erase(y1: number, x1: number, y2: number, x2: number): void {
    for (let y = y1; y < y2; y++) {
      this.cells[y]!.fill(BLANK, x1, x2);
      this.dirty.add(y);
    }
  }
}
