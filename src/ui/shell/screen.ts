import type { Agent } from "../../protocol/entities.ts";
import type { IdList, ListIndex } from "../agents/list-index.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import type { Layout } from "../kit/layout.ts";
import type { Viewport } from "../output/scroll.ts";
import type { PhaseRow } from "../phases/phase-rows.ts";

/** Everything the dashboard derives from its state, the mirror and the terminal size: one pure function (`derive-screen.ts`). */
export interface Screen {
  /** The list as shown, in order (kept from one screen to the next: `list-index.ts`), and its ids as the keys move through them. */
  list: ListIndex;
  ids: IdList;
  /** Agents waiting for the person. */
  needs: ReadonlySet<string>;
  /** The selection as shown: the one chosen, or the first when that one is filtered out or gone. */
  selectedId: string | null;
  selected: Agent | null;
  /** The selected agent's pending permission requests, oldest first (the pane shows the first). */
  requests: PermissionRequest[];
  /** Rows under the output that show the first of them (0: none). */
  requestRows: number;
  total: number;
  running: number;
  /** What waits for the person: agents, and proposals to review (the header's count). */
  needYou: number;
  /** With several sources: the labels of those not reachable now (the header names them); null with one. */
  unreachable: readonly string[] | null;
  /** The phases tree as shown (empty unless the phases view is open), and its selection as shown. */
  phaseRows: PhaseRow[];
  /** What `phaseRows` was built from (by identity): the next screen reuses it while they stay. */
  phaseSource: readonly unknown[] | null;
  phaseSelected: PhaseRow | null;
  /** The phases view's tree and content pane, and the selected item's content wrapped to that pane. */
  phaseLayout: Layout;
  phaseContent: string[];
  /** The pool's line over the phases tree (hosts-line.ts), or null: then the tree starts at the top. */
  phaseHosts: string | null;
  banner: string | null;
  layout: Layout;
  /** The output pane's rows for text (its title takes one). */
  viewport: Viewport;
  diffRows: number;
  /** How far the help overlay scrolls; 0 while it is closed. */
  helpMax: number;
}
