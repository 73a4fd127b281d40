import { memo } from "react";
import type { Agent } from "../../protocol/entities.ts";
import { STATUS } from "../../protocol/status.ts";
import { OutputPane } from "./OutputPane.tsx";
import { useAgentOutput } from "./useAgentOutput.ts";
import type { AgentOutput, OutputStore } from "../mirror/output-store.ts";
import { visibleWindow, type Scroll } from "./scroll.ts";

export interface OutputViewProps {
  store: OutputStore;
  agent: Agent | null;
  raw: boolean;
  scroll: Scroll;
  width: number;
  height: number;
  focused: boolean;
}

// toLocaleString makes a formatter at each call (every frame while output streams); made at first
// use, since making one loads ICU's number data, a few ms of every first frame
let count: Intl.NumberFormat | undefined;

function title(agent: Agent | null, buf: AgentOutput | null, raw: boolean, scroll: Scroll, below: number): string {
  if (!agent) return "Output";
  const parts = [`Output · ${agent.name}`];
  if (agent.session > 1) parts.push(`session ${agent.session}`);
  if (buf?.state === "loading") parts.push("loading…");
  parts.push(scroll.follow ? "following" : `paused${below ? ` · ${below} more below` : ""} (G follows)`);
  if (raw) parts.push("raw");
  if (buf && buf.rendered.base > 0) parts.push(`last ${(count ??= new Intl.NumberFormat("en")).format(buf.rendered.end - buf.rendered.base)} lines`);
  return parts.join(" · ");
}

function emptyText(agent: Agent | null, buf: AgentOutput | null): string {
  if (!agent) return "select an agent";
  if (!buf || buf.state === "loading") return "loading output…";
  if (buf.state === "error") return `could not load output: ${buf.error}`;
  if (STATUS[agent.status].needsPerson) return "no output yet · it waits for you: press a";
  return "no output yet";
}

/**
 * The selected agent's output, subscribed on its own: streaming output redraws this pane only,
 * never the list or the rest of the app.
 */
export const OutputView = memo(function OutputView({ store, agent, raw, scroll, width, height, focused }: OutputViewProps) {
  const buf = useAgentOutput(store, agent);
  const viewport = { width, height: Math.max(0, height - 1) };
  const win = buf ? visibleWindow(buf.source(raw), viewport, scroll) : { rows: [], below: 0 };
  return (
    <OutputPane
      title={title(agent, buf, raw, scroll, win.below)}
      rows={win.rows}
      width={width}
      height={height}
      focused={focused}
      empty={emptyText(agent, buf)}
    />
  );
});
