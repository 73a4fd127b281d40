import * as acp from "@agentclientprotocol/sdk";

/**
 * How an agent lets its client pick the session's mode, read from its answer to `session/new` or
 * `session/load`: the `modes` state (`session/set_mode`), or a config option of category `mode`
 * (`session/set_config_option`, as opencode and Kilo offer it). Null when it offers neither.
 */
export interface ModeSwitch {
  current: string;
  available: string[];
  /** Makes `mode` the session's. */
  set(ctx: acp.ClientContext, sessionId: string, mode: string): Promise<unknown>;
}

type SessionAnswer = { modes?: acp.SessionModeState | null; configOptions?: acp.SessionConfigOption[] | null } | null | undefined;

export function modeSwitch(answer: SessionAnswer): ModeSwitch | null {
  const modes = answer?.modes;
  if (modes) {
    return {
      current: modes.currentModeId,
      available: modes.availableModes.map((m) => m.id),
      set: (ctx, sessionId, modeId) => ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId }),
    };
  }
  const option = answer?.configOptions?.find((o) => o.category === "mode" && o.type === "select");
  if (!option || option.type !== "select") return null;
  return {
    current: String(option.currentValue),
    available: option.options.flatMap((o) => ("options" in o ? o.options.map((x) => x.value) : [o.value])),
    set: (ctx, sessionId, value) => ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: option.id, value }),
  };
}
