import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { TroupeError } from "../errors.ts";
import type { Account, AddAccountRequestSchema } from "../protocol/account.ts";
import { getProvider } from "../../providers/index.ts";
import type { z } from "zod";
import type { AccountStore } from "./store.ts";
import { publicAccount } from "./select.ts";

export type AddAccount = z.output<typeof AddAccountRequestSchema>;

/** `troupe account add|ls|rm|reset` over the user's account store: what goes out is the public view, never a secret. */
export class AccountService {
  /** `onAvailable`: an account of `provider` came or came back (blocked agents of it may run again). */
  constructor(
    private readonly accounts: AccountStore,
    private readonly onAvailable: (provider: string) => void = () => {},
  ) {}

  list(): Account[] {
    const now = Date.now();
    return this.accounts.list().map((a) => publicAccount(a, now, existsSync));
  }

  add(req: AddAccount): Account {
    const provider = getProvider(req.provider);
    if (!provider) throw new TroupeError("provider_unknown", `unknown provider '${req.provider}' (see 'troupe providers')`);
    if (req.token !== undefined && !provider.tokenEnv) throw new TroupeError("bad_request", `the ${provider.name} provider takes no --token; give --env NAME=VALUE`);
    if (req.configDir !== undefined) {
      if (!provider.accountEnv) throw new TroupeError("bad_request", `the ${provider.name} provider has no config folder variable; give --env NAME=VALUE`);
      if (!isAbsolute(req.configDir)) throw new TroupeError("bad_request", `--config-dir needs an absolute path, not '${req.configDir}'`);
      if (!statSync(req.configDir, { throwIfNoEntry: false })?.isDirectory()) throw new TroupeError("bad_request", `--config-dir ${req.configDir} is not a folder`);
    }
    const name = req.name ?? this.freeName(provider.name);
    const kind = req.token !== undefined ? "token" : req.configDir !== undefined ? "config-dir" : "env";
    const stored = this.accounts.add({ name, provider: provider.name, kind, token: req.token ?? null, configDir: req.configDir ?? null, env: req.env ?? null });
    this.onAvailable(provider.name);
    return publicAccount(stored, Date.now(), existsSync);
  }

  remove(ref: string): Account {
    return publicAccount(this.accounts.remove(ref), Date.now(), existsSync);
  }

  /** Clears what was recorded against it (spent, credential refused): the person says it works again. */
  reset(ref: string): Account {
    const stored = this.accounts.reset(ref);
    this.onAvailable(stored.provider);
    return publicAccount(stored, Date.now(), existsSync);
  }

  private freeName(provider: string): string {
    const taken = new Set(this.accounts.list().map((a) => a.name));
    for (let n = 1; ; n++) if (!taken.has(`${provider}-${n}`)) return `${provider}-${n}`;
  }
}
