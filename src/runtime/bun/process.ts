import type { ProcessRuntime, StringWidth } from "../contract.ts";

export const processRuntime: ProcessRuntime = {
  which: (bin, PATH) => Bun.which(bin, { PATH }),
  gc: () => Bun.gc(true),
  mainScript: () => Bun.main,
};

export const stringWidth: StringWidth = (s) => Bun.stringWidth(s);
