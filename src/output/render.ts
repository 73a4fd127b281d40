import { getProvider } from "../../providers/index.ts";
import type { LineParser } from "./lines.ts";

export * from "./lines.ts";
export * from "./renderer.ts";

const rawParser: LineParser = (line) => [{ kind: "raw", line }];

/** The provider's own parser, or one that keeps every line as written when the provider is unknown. */
export function parserFor(providerName: string): LineParser {
  const provider = getProvider(providerName);
  if (!provider) return rawParser;
  return (line, stream) => {
    try {
      return provider.parseLine(line, stream);
    } catch {
      return [{ kind: "raw", line }]; // the contract says never throws; a display must not die if one does
    }
  };
}

