import type { Account } from "../protocol/account.ts";
import type { HostInventory } from "../protocol/host.ts";
import { PROVIDERS } from "../../providers/index.ts";
import { which } from "../runtime/process.ts";
import { program } from "../runtime/program.ts";

export interface InventorySource {
  /** This daemon's agents that run now. */
  running(): number;
  accounts(): Account[];
  /** Where its agents' CLIs are looked for: the daemon's own PATH. */
  path: string;
}

/** What this daemon has as a host of a pool: the providers on its PATH (no CLI run), its accounts' public view. */
export function hostInventory(src: InventorySource): HostInventory {
  return {
    platform: program.platform(),
    running: src.running(),
    providers: PROVIDERS.filter((p) => p.binary === null || which(p.binary, src.path) !== null).map((p) => p.name),
    accounts: src.accounts().map((a) => ({ name: a.name, provider: a.provider, status: a.status, runsOutAt: a.runsOutAt })),
  };
}
