import type { useAction } from "./useAction.ts";

/** A form's submit button, off while its call runs, and the call's error under it. */
export function Submit({ act, label, className }: { act: ReturnType<typeof useAction>; label: string; className?: string }) {
  return (
    <>
      <button type="submit" className={className} disabled={act.busy}>
        {label}
      </button>
      {act.error && <p className="err">{act.error}</p>}
    </>
  );
}
