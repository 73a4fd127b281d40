/** Agents as a tree (a worker under the agent that started it), shared by `troupe ls` and the dashboard: pure. */

/** What the tree needs of an item: its id and the id of its parent (null: started by the person). */
export interface TreeItem {
  id: string;
  parentId: string | null;
}

/** One item in tree order: its depth (0: top level) and, per level down to its own, whether that branch is the last. */
export interface TreeRow<T> {
  item: T;
  depth: number;
  /** `lasts[i]` is true when the ancestor at depth i+1 (the item itself, at the end) is its parent's last child. */
  lasts: readonly boolean[];
}

const TOP: readonly boolean[] = [];

/**
 * The items in tree order: each child right under its parent, siblings and top-level items in
 * the order given. An item is top level when its parent is not among the items (removed, or
 * filtered out) or when `detach` says so (the dashboard lifts an agent needing the person to the
 * top); a parent chain that loops (never written by troupe, but the store is data) is cut where
 * it is first met, so every item shows exactly once.
 */
export function treeRows<T extends TreeItem>(items: readonly T[], detach: (item: T) => boolean = () => false): TreeRow<T>[] {
  const ids = new Set(items.map((i) => i.id));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const item of items) {
    const parent = item.parentId;
    if (parent === null || parent === item.id || !ids.has(parent) || detach(item)) roots.push(item);
    else {
      const kids = children.get(parent);
      if (kids) kids.push(item);
      else children.set(parent, [item]);
    }
  }
  // no item under another among them, none twice (the common case): the items as given, all at the top level
  if (roots.length === items.length && ids.size === items.length) return items.map((item) => ({ item, depth: 0, lasts: TOP }));
  const out: TreeRow<T>[] = [];
  const seen = new Set<string>();
  // iterative, so a deep chain of workers cannot overflow the stack
  const walk = (root: T) => {
    const stack: { item: T; lasts: boolean[] }[] = [{ item: root, lasts: [] }];
    while (stack.length) {
      const { item, lasts } = stack.pop()!;
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push({ item, depth: lasts.length, lasts });
      const kids = (children.get(item.id) ?? []).filter((k) => !seen.has(k.id));
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ item: kids[i]!, lasts: [...lasts, i === kids.length - 1] });
    }
  };
  for (const root of roots) walk(root);
  // what a loop left unreached: at the top level, in the order given
  for (const item of items) if (!seen.has(item.id)) walk(item);
  return out;
}

/** The strings a tree is drawn with: before a child (`branch`, or `last` for the last), and under an ancestor with siblings to come (`pipe`) or without (`space`). */
export interface TreeGlyphs {
  branch: string;
  last: string;
  pipe: string;
  space: string;
}

/** `troupe ls`: three columns a level, as `tree` draws. */
export const LS_GLYPHS: Record<"unicode" | "ascii", TreeGlyphs> = {
  unicode: { branch: "├─ ", last: "└─ ", pipe: "│  ", space: "   " },
  ascii: { branch: "|- ", last: "`- ", pipe: "|  ", space: "   " },
};

/** The dashboard's list: two columns a level, so a worker's name keeps its room. */
export const LIST_GLYPHS: Record<"unicode" | "ascii", TreeGlyphs> = {
  unicode: { branch: "├ ", last: "└ ", pipe: "│ ", space: "  " },
  ascii: { branch: "|-", last: "`-", pipe: "| ", space: "  " },
};

/** What goes before an item's name, from its row's `lasts`: empty at the top level. */
export function treePrefix(lasts: readonly boolean[], g: TreeGlyphs): string {
  let s = "";
  for (let i = 0; i < lasts.length; i++) {
    const last = lasts[i]!;
    s += i === lasts.length - 1 ? (last ? g.last : g.branch) : last ? g.space : g.pipe;
  }
  return s;
}

/**
 * Whether to draw with ASCII instead of box-drawing characters: on TERM=dumb or TROUPE_ASCII=1,
 * the one rule the dashboard's theme and the CLI share.
 */
export function asciiFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TERM === "dumb" || env.TROUPE_ASCII === "1";
}
