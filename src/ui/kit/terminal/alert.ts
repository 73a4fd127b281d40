import { noticeText, type NoticeReason } from "../../../protocol/notice.ts";
import type { NotifyConfig } from "../../../protocol/user-config.ts";

/** Something that calls for the person now, as the bell and the desktop notification name it. */
export interface AttentionItem {
  /** Who: the agent's name (for a proposal, the agent that proposed it; else the initiative's). */
  name: string;
  reason: NoticeReason;
  /** What: the question, the message, the proposal's title (raw: the caller sanitizes). */
  text: string;
}

const ESC = "\x1b";
const BEL = "\x07";
/** Desktop notifications per batch: five agents asking at once say so in a few, not a flood. */
const MAX_DESKTOP = 3;

/** Which desktop-notification escapes to write: `notify.desktop` (off unless the person turns it on). */
export type DesktopEscapes = "none" | "osc9" | "osc777" | "both";

export function desktopEscapes(desktop: NotifyConfig["desktop"]): DesktopEscapes {
  if (desktop === true) return "both";
  return desktop === "osc9" || desktop === "osc777" ? desktop : "none";
}

export interface AlertOptions {
  bell: boolean;
  desktop: DesktopEscapes;
  /** Inside tmux ($TMUX): the escapes go through its passthrough to reach the outer terminal. */
  tmux: boolean;
}

/**
 * tmux's DCS passthrough (`ESC P tmux; ... ESC \`, every inner ESC doubled): tmux hands it to the
 * terminal it runs in (with `allow-passthrough on`), which is the person's own over SSH.
 */
export const tmuxPassthrough = (seq: string): string => `${ESC}Ptmux;${seq.replaceAll(ESC, ESC + ESC)}${ESC}\\`;

/**
 * OSC 9 (iTerm2, kitty, WezTerm, Ghostty, foot) and OSC 777 (VTE terminals, urxvt, WezTerm):
 * the title and the body are plain single lines, so nothing an agent wrote can end the sequence
 * early or start another one; OSC 777 splits on `;`, so its title has none.
 */
export function desktopNotification(title: string, body: string, which: Exclude<DesktopEscapes, "none">): string {
  const t = noticeText(title, 60);
  const b = noticeText(body);
  const osc9 = `${ESC}]9;${t}: ${b}${BEL}`;
  const osc777 = `${ESC}]777;notify;${t.replaceAll(";", ",")};${b}${BEL}`;
  return which === "osc9" ? osc9 : which === "osc777" ? osc777 : osc9 + osc777;
}

const REASON_WORDS: Record<AttentionItem["reason"], string> = {
  question: "asks",
  permission: "asks permission",
  approval: "proposes",
  message: "says",
  failed: "failed",
  done: "is done",
};

/** The bytes that tell the person new items need them: one bell for the batch, one notification per item (a few at most). */
export function alertBytes(items: readonly AttentionItem[], o: AlertOptions): string {
  if (!items.length) return "";
  let out = o.bell ? BEL : "";
  if (o.desktop === "none") return out;
  const shown = items.slice(0, MAX_DESKTOP);
  for (const [n, item] of shown.entries()) {
    const more = n === shown.length - 1 && items.length > shown.length ? ` (+${items.length - shown.length} more)` : "";
    const seq = desktopNotification(`troupe: ${item.name}`, `${REASON_WORDS[item.reason]}: ${item.text}${more}`, o.desktop);
    out += o.tmux ? tmuxPassthrough(seq) : seq;
  }
  return out;
}
