import { PROVIDER_NAMES } from "../../providers/names.ts";
import { PERMISSION_MODES } from "../protocol/permission-modes.ts";

/** "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** Only the names: the provider modules load in the commands that use them. */
export const PROVIDER_LIST = orList(PROVIDER_NAMES);

/** The permission modes, the default first: "skip (default), edits, plan or ask". */
export const PERMISSION_CHOICES = orList(PERMISSION_MODES.map((m, i) => (i === 0 ? `${m} (default)` : m)));
