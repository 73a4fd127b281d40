import { PROVIDERS, detectProvider } from "../../../../providers/index.ts";
import type { ProviderChoice } from "../../mirror/deps.ts";

let cached: Promise<ProviderChoice[]> | null = null;

/** Every provider troupe knows with whether its CLI is installed; looked up once per dashboard. */
export function listProviders(): Promise<ProviderChoice[]> {
  cached ??= Promise.all(
    PROVIDERS.map(async (p) => {
      const d = await detectProvider(p);
      return { name: p.name, displayName: p.displayName, installed: d.installed, version: d.version, install: d.install };
    }),
  ).catch((err: unknown) => {
    cached = null; // try again next time the dialog opens
    throw err;
  });
  return cached;
}
