/**
 * Redraws one piece of text in place, outside Ink's frame. A frame costs Ink's whole pass (layout,
 * every text node, the screen's rows, the diff); a clock that moves in ten rows once a second needs
 * a few cells. `repaintCell` sets the text in Ink's own tree, so every later frame draws it as it is
 * now, and returns the bytes that draw those cells where Ink drew them, styled by the same transforms
 * (the colours of the `<Text>`s around it). Where that cannot be exact (the text changes width, its
 * line wraps, is cut or clipped, or a box has a border) it returns null and the caller renders.
 *
 * Reads Ink 8's tree as its reconciler builds it (nodes with `nodeName`, `childNodes`, `yogaNode`,
 * `internal_transform`): not Ink's public API, and pinned with it (patches/ink+8.0.0.patch applies to
 * that version only). tests/ui/kit/terminal/repaint.test.tsx holds the result to Ink's own frame.
 */
import { stringWidth } from "../../../runtime/string-width.ts";

type Transform = (text: string, index: number) => string;

interface YogaNode {
  getComputedLeft(): number;
  getComputedTop(): number;
  getComputedWidth(): number;
  getComputedHeight(): number;
  getDisplay(): number;
  markDirty(): void;
}

/** A node of Ink's tree, as far as repainting reads it. */
export interface InkNode {
  nodeName: string;
  nodeValue?: string;
  parentNode?: InkNode;
  childNodes?: InkNode[];
  yogaNode?: YogaNode;
  isHidden?: boolean;
  style?: { overflow?: string; overflowX?: string; overflowY?: string; borderStyle?: unknown; contentOffsetX?: number; contentOffsetY?: number };
  internal_transform?: Transform;
}

const DISPLAY_NONE = 1; // Yoga.DISPLAY_NONE

/** The text a node shows, unstyled (transforms only add colour: they keep the width). */
function plainText(node: InkNode): string {
  if (node.nodeName === "#text") return node.nodeValue ?? "";
  if (node.isHidden) return "";
  let s = "";
  for (const child of node.childNodes ?? []) s += plainText(child);
  return s;
}

/** A printable line: no newline, tab or escape (their width is not the cells they take). */
const printable = (s: string) => !/[\n\t\r\x1b\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(s);

const clipsX = (n: InkNode) => (n.style?.overflowX ?? n.style?.overflow) === "hidden";
const clipsY = (n: InkNode) => (n.style?.overflowY ?? n.style?.overflow) === "hidden";

/** Where a cell is on the screen and how Ink styles it: found once, drawn at every tick until the next render. */
export interface CellPlace {
  row: number;
  column: number;
  width: number;
  /** Its text node, and the line's layout node (measured again when the text changes). */
  text: InkNode;
  line: YogaNode;
  /** The styles of the `<Text>`s around it (then of the boxes around those), innermost first. */
  transforms: readonly Transform[];
}

/**
 * Where `cell` (an inline text element holding one string, inside a `<Text>`) is drawn on a
 * full-screen frame of `rows` rows; null when its text is not where its characters say (a line
 * that wraps, is cut or has padding, a hidden or clipped place, a box with a border).
 */
export function locateCell(cell: InkNode, rows: number): CellPlace | null {
  const textNode = cell.childNodes?.length === 1 ? cell.childNodes[0]! : null;
  if (!textNode || textNode.nodeName !== "#text" || !printable(textNode.nodeValue ?? "")) return null;

  // Up to the `<Text>` that holds the line: the column the cell starts at, and the styles around it.
  const transforms: Transform[] = [];
  let column = 0;
  let node = cell;
  while (node.nodeName !== "ink-text") {
    const parent = node.parentNode;
    if (!parent || node.isHidden) return null;
    if (node.internal_transform) transforms.push(node.internal_transform);
    for (const sibling of parent.childNodes ?? []) {
      if (sibling === node) break;
      column += stringWidth(plainText(sibling));
    }
    node = parent;
  }
  const line = node;
  const yoga = line.yogaNode;
  const whole = plainText(line);
  // a line Ink would wrap or cut (or one with padding before its text) is not where its text says
  if (!yoga || !printable(whole) || yoga.getComputedHeight() !== 1 || stringWidth(whole) > yoga.getComputedWidth()) return null;
  if (line.childNodes?.[0]?.yogaNode) return null;
  if (line.internal_transform) transforms.push(line.internal_transform);

  // Where Ink puts the line: each node's place is its parent's plus its own (less a scrolled content offset).
  const chain: InkNode[] = [];
  for (let n: InkNode | undefined = line; n; n = n.parentNode) {
    if (!n.yogaNode || n.yogaNode.getDisplay() === DISPLAY_NONE || n.isHidden) return null;
    if (n.style?.borderStyle) return null;
    chain.push(n);
  }
  const root = chain[chain.length - 1]!;
  if (root.nodeName !== "ink-root" || Math.round(root.yogaNode!.getComputedHeight()) !== rows) return null;
  const at = new Map<InkNode, { x: number; y: number }>();
  let x = 0;
  let y = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const n = chain[i]!;
    const parent = chain[i + 1];
    if (parent) {
      x -= Math.trunc(parent.style?.contentOffsetX ?? 0);
      y -= Math.trunc(parent.style?.contentOffsetY ?? 0);
    }
    x += n.yogaNode!.getComputedLeft();
    y += n.yogaNode!.getComputedTop();
    at.set(n, { x, y });
  }
  // then the boxes' transforms, innermost first, as Ink hands them down
  for (const n of chain.slice(1)) if (n.internal_transform) transforms.push(n.internal_transform);
  const width = stringWidth(textNode.nodeValue ?? "");
  const from = x + column;
  const to = from + width;
  if (!Number.isInteger(from) || !Number.isInteger(y) || from < 0 || y < 0 || y >= rows || to > root.yogaNode!.getComputedWidth()) return null;
  // every box that clips (overflow hidden) must show the cells whole
  for (const n of chain) {
    const box = at.get(n)!;
    if (clipsX(n) && (from < box.x || to > box.x + n.yogaNode!.getComputedWidth())) return null;
    if (clipsY(n) && (y < box.y || y >= box.y + n.yogaNode!.getComputedHeight())) return null;
  }
  return { row: y, column: from, width, text: textNode, line: yoga, transforms };
}

/**
 * Sets the cell at `place` to `text` in Ink's tree and returns the bytes that draw it there ("" when
 * it reads so already); null when the new text is not as wide (the line would move): then the tree
 * is left as it was and the caller renders.
 */
export function paintCell(place: CellPlace, text: string): string | null {
  if (place.text.nodeValue === text) return "";
  if (!printable(text) || stringWidth(text) !== place.width) return null;
  place.text.nodeValue = text;
  place.line.markDirty();
  let styled = text;
  for (const t of place.transforms) styled = t(styled, 0);
  // save the cursor (and its attributes), draw, put it back where Ink left it
  return `\x1b7\x1b[${place.row + 1};${place.column + 1}H${styled}\x1b8`;
}

/** `locateCell` then `paintCell`: null when either cannot. */
export function repaintCell(cell: InkNode, text: string, rows: number): string | null {
  const place = locateCell(cell, rows);
  return place && paintCell(place, text);
}
