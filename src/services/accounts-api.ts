import type { AccountService } from "../accounts/service.ts";
import type { ACCOUNT_ENDPOINTS } from "../protocol/api/accounts.ts";
import type { HandlersOf } from "./services.ts";

/** The user's provider accounts: the public view only, never a secret. */
export function accountsApi(accounts: AccountService): HandlersOf<typeof ACCOUNT_ENDPOINTS> {
  return {
    accounts: () => accounts.list(),
    addAccount: (_caller, req) => accounts.add(req),
    removeAccount: (_caller, { ref }) => accounts.remove(ref),
    resetAccount: (_caller, { ref }) => accounts.reset(ref),
  };
}
