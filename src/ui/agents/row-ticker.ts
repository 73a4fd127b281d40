import type { Agent } from "../../protocol/entities.ts";
import { locateCell, paintCell, type CellPlace, type InkNode } from "../kit/terminal/repaint.ts";
import { elapsedCell, nextElapsedChange, whatCell, whatReadsClock, type RowColumns } from "./row-format.ts";

/** A row on screen, as the list drew it: what its cells are made from. */
export interface TickedRow {
  agent: Agent;
  cols: RowColumns;
  tree: string;
  /** What leads its what-cell (`rowCells`' note). */
  note?: string;
}

/** The cells of a row that read the clock: its elapsed time, and what it works on (a retry's countdown). */
export type ClockCell = "elapsed" | "what";

export interface TickerOptions {
  /** Writes repainted cells to the terminal; null when there is none to draw on (the rows render instead). */
  write: ((bytes: string) => void) | null;
  /** The terminal's height: the frame fills it. */
  rows: () => number;
  /** Renders the list afresh, when cells cannot be repainted in place. */
  redraw: () => void;
  /** True while the terminal belongs to another program (take over, editor): no tick draws then. */
  paused?: () => boolean;
}

/**
 * Moves the rows' elapsed times without a frame. A tick comes when a row on screen would read
 * differently ("11s" every second, "3m" once a minute: `nextElapsedChange`), and repaints the
 * cells that changed in place (`repaintCell`); only when that cannot be done exactly does the list
 * render again. The rows register their clock-bound cells; the list tells what it drew after each
 * render, so a tick never outlives the rows it is for, and nothing is scheduled while none runs.
 */
export class RowTicker {
  private shown: readonly TickedRow[] = [];
  private readonly cells = new Map<string, Partial<Record<ClockCell, InkNode>>>();
  /** Where each cell is on screen, found at its first change after a render (null: not drawable in place). */
  private places = new Map<InkNode, CellPlace | null>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: TickerOptions) {}

  /** The rows as the list just drew them; schedules the next tick. */
  show(rows: readonly TickedRow[]): void {
    this.shown = rows;
    this.places = new Map();
    this.schedule();
  }

  /** Where a row's clock-bound cell is in Ink's tree (a ref callback: null when it goes). */
  cell(agentId: string, which: ClockCell, node: InkNode | null): void {
    const cells = this.cells.get(agentId) ?? {};
    if (node) cells[which] = node;
    else delete cells[which];
    if (Object.keys(cells).length) this.cells.set(agentId, cells);
    else this.cells.delete(agentId);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.shown = [];
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const wait = nextElapsedChange(
      this.shown.map((r) => r.agent),
      Date.now(),
    );
    if (wait === null) return;
    this.timer = setTimeout(() => this.tick(), wait);
  }

  /** Repaints what the clock changed; renders instead when any cell cannot be repainted. */
  tick(): void {
    this.timer = null;
    if (this.o.paused?.()) return this.schedule(); // the cells are painted at the first tick after
    const now = Date.now();
    let bytes = "";
    let redraw = this.o.write === null;
    for (const r of this.shown) {
      if (redraw) break;
      const nodes = this.cells.get(r.agent.id);
      if (!nodes) continue;
      const elapsed = this.paint(nodes.elapsed, elapsedCell(r.agent, r.cols, now));
      const what = nodes.what && whatReadsClock(r.agent) ? this.paint(nodes.what, whatCell(r.agent, r.cols, now, r.note)) : "";
      if (elapsed === null || what === null) redraw = true;
      else bytes += elapsed + what;
    }
    if (bytes) this.o.write?.(bytes);
    if (redraw) this.o.redraw();
    this.schedule();
  }

  /** The bytes that draw `text` in `node`'s place ("" when it reads so already); null when it cannot be drawn in place. */
  private paint(node: InkNode | undefined, text: string): string | null {
    if (!node || node.childNodes?.[0]?.nodeValue === text) return "";
    let place = this.places.get(node);
    if (place === undefined) this.places.set(node, (place = locateCell(node, this.o.rows())));
    return place && paintCell(place, text);
  }
}
