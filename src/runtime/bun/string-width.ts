import type { StringWidth } from "../contract.ts";

export const stringWidth: StringWidth = (s) => Bun.stringWidth(s);
