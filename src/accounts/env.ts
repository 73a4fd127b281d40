import { assertNever } from "../errors.ts";
import type { Provider } from "../../providers/types.ts";
import type { StoredAccount } from "./select.ts";

/**
 * The environment an agent on `account` runs with: the spawning environment without any of the
 * provider's credential variables (an `ANTHROPIC_API_KEY` there would win over the account's
 * token), then the account's own: its token in the provider's token variable, its config folder
 * in the provider's config variable, or its variables as given. Pure.
 */
export function withAccount(provider: Provider, account: StoredAccount, clientEnv: Readonly<Record<string, string>>): Record<string, string> {
  const env = { ...clientEnv };
  for (const name of provider.credentialEnv) delete env[name];
  switch (account.kind) {
    case "token":
      if (provider.tokenEnv && account.token !== null) env[provider.tokenEnv] = account.token;
      break;
    case "config-dir":
      if (provider.accountEnv && account.configDir !== null) env[provider.accountEnv] = account.configDir;
      break;
    case "env":
      Object.assign(env, account.env ?? {});
      break;
    default:
      assertNever(account.kind);
  }
  return env;
}

