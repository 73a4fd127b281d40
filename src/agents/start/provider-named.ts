import { TroupeError } from "../../errors.ts";
import type { Provider } from "../../../providers/types.ts";
import { getProvider } from "../../../providers/index.ts";

/** The provider by name; `provider_unknown` otherwise. */
export function providerNamed(name: string): Provider {
  const p = getProvider(name);
  if (!p) throw new TroupeError("provider_unknown", `unknown provider '${name}' (see 'troupe providers')`);
  return p;
}
