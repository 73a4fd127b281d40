import { TroupeError, errorMessage } from "../../errors.ts";
import { decidedText, permissionDecision, settledText, type PermissionModal } from "./permission-form.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { formFailed, say } from "../kit/keys/helpers.ts";

/**
 * Refusals that mean the request is no longer the person's to answer: decided meanwhile (another
 * dashboard, the CLI, a rule) or its agent ended. The dialog closes with the daemon's one line.
 */
const GONE = new Set(["conflict", "not_found"]);

/** Sends the dialog's decision (a FormError for what was typed is thrown to `submitForm`); the dialog closes once the daemon took it. */
export function decidePermission(env: KeyEnv, m: PermissionModal): void {
  const decision = permissionDecision(m);
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.decidePermission(m.request.id, decision).then(
    (r) => {
      env.mirror.upsertPermission(r);
      env.dispatch({ type: "close" });
      say(env, decidedText(m, decision));
    },
    (err: unknown) => {
      if (!(err instanceof TroupeError && GONE.has(err.code))) return formFailed(env, err);
      env.dispatch({ type: "close" });
      say(env, errorMessage(err), "error");
    },
  );
}

/**
 * The open dialog's request was settled without it (another dashboard, the CLI, a rule, the
 * agent's end): the dialog closes with a line saying so. Not while our own decision is in flight.
 */
export function closeIfSettled(env: Pick<KeyEnv, "ui" | "entities" | "dispatch">): void {
  const m = env.ui.modal;
  if (m.kind !== "permission" || m.busy) return;
  const settled = env.entities.permissions.settled[m.request.id];
  if (!settled) return;
  env.dispatch({ type: "close" });
  env.dispatch({ type: "status", status: { text: settledText(m.request, settled), kind: "info" } });
}
