import type { EndpointMethods } from "../../client/client.ts";
import { runMode } from "../../client/modes.ts";
import type { WorkRuns } from "../mirror/deps.ts";

/**
 * `troupe detail PHASE` and `troupe dispatch I [--stop]` as the dashboard makes them: the same
 * client calls, with the environment the dashboard was started in (dispatch keeps it, with the
 * git identity, for every run and merge it starts).
 */
export function workRuns(client: EndpointMethods, env: Record<string, string>): WorkRuns {
  return {
    detail: async (ref) => runMode(client, "detail", ref, { env }),
    dispatch: async (ref) => client.dispatch(ref, { env }),
    stopDispatch: async (ref) => client.stopDispatch(ref),
  };
}
