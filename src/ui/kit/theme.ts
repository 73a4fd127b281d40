import { createContext, useContext } from "react";
import type { AgentStatus } from "../../protocol/entities.ts";
import type { LineKind } from "../../output/lines.ts";
import { asciiFromEnv } from "../../output/tree.ts";

/** How the terminal may be drawn on: colour off under NO_COLOR or TERM=dumb, ASCII symbols on TERM=dumb or TROUPE_ASCII=1. */
export interface Theme {
  color: boolean;
  ascii: boolean;
}

export function themeFromEnv(env: NodeJS.ProcessEnv = process.env): Theme {
  const dumb = env.TERM === "dumb";
  return {
    color: !(env.NO_COLOR !== undefined && env.NO_COLOR !== "") && !dumb,
    ascii: asciiFromEnv(env),
  };
}

export const ThemeContext = createContext<Theme>({ color: true, ascii: false });

export function useTheme(): Theme {
  return useContext(ThemeContext);
}

export type Colour = "green" | "yellow" | "red" | "cyan" | "blue" | "gray" | "magenta";

/** A colour name when colour is on, else undefined (Ink then leaves the text alone). */
export function tint(theme: Theme, c: Colour | undefined): Colour | undefined {
  return theme.color ? c : undefined;
}

/** Distinct per status, so the list reads without colour. */
const STATUS_LOOK: Record<AgentStatus, { unicode: string; ascii: string; colour: Colour }> = {
  starting: { unicode: "◌", ascii: "+", colour: "cyan" },
  running: { unicode: "●", ascii: "*", colour: "green" },
  waiting: { unicode: "◆", ascii: "?", colour: "yellow" },
  done: { unicode: "✓", ascii: "v", colour: "blue" },
  failed: { unicode: "✗", ascii: "x", colour: "red" },
  stopped: { unicode: "■", ascii: "-", colour: "gray" },
  blocked: { unicode: "⧗", ascii: "z", colour: "magenta" },
  // the person has it on their terminal (troupe attach)
  attached: { unicode: "▶", ascii: ">", colour: "magenta" },
};

export function statusSymbol(theme: Theme, s: AgentStatus): string {
  return theme.ascii ? STATUS_LOOK[s].ascii : STATUS_LOOK[s].unicode;
}

export function statusColour(s: AgentStatus): Colour {
  return STATUS_LOOK[s].colour;
}

export function kindColour(k: LineKind): Colour | undefined {
  switch (k) {
    case "tool":
      return "cyan";
    case "error":
      return "red";
    case "meta":
    case "result":
      return "gray";
    case "text":
    case "raw":
      return undefined;
  }
}

export function selectionMark(theme: Theme): string {
  return theme.ascii ? ">" : "›";
}
