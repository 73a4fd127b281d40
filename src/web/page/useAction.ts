import { useState } from "react";

/** A button's call: busy while it runs, its error (one line) after. */
export function useAction(): { busy: boolean; error: string | null; run: (p: () => Promise<unknown>, after?: () => void) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    run: (p, after) => {
      setBusy(true);
      setError(null);
      p().then(
        () => {
          setBusy(false);
          after?.();
        },
        (err: unknown) => {
          setBusy(false);
          setError(err instanceof Error ? err.message : String(err));
        },
      );
    },
  };
}
