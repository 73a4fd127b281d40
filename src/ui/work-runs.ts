import type { TroupeClient } from "../client/client.ts";
import { TroupeError } from "../errors.ts";
import type { WorkRuns } from "./types.ts";

/** `troupe detail` and `troupe dispatch` as the dashboard makes them, with the environment it was started in. */
export function workRuns(client: TroupeClient, env: Record<string, string>): WorkRuns {
  void client;
  void env;
  const missing = async (): Promise<never> => {
    throw new TroupeError("not_found", "this daemon cannot do that yet");
  };
  return { detail: missing, dispatch: missing, stopDispatch: missing };
}
