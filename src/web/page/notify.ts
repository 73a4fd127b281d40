import type { AttentionItem } from "../../ui/mirror/attention.ts";

/** The browser's notifications of "needs you", while the page is open (ntfy covers it closed). */
export interface Notifier {
  /** Whether the browser has them, and whether the person allowed them. */
  state(): "unsupported" | "default" | "granted" | "denied";
  /** Asks the person (a click must call it: browsers refuse otherwise). */
  ask(): Promise<void>;
  attention(items: AttentionItem[]): void;
}

/**
 * Notifies of what the mirror says newly waits for the person, when the browser allows it (iOS
 * only for a page added to the home screen) and the page is not the one in front.
 */
export function notifier(): Notifier {
  const has = typeof Notification !== "undefined";
  return {
    state: () => (has ? Notification.permission : "unsupported"),
    ask: async () => {
      if (has) await Notification.requestPermission();
    },
    attention: (items) => {
      if (!has || Notification.permission !== "granted" || document.visibilityState === "visible") return;
      for (const item of items) {
        try {
          new Notification(`${item.name} needs you`, { body: item.text, tag: `${item.name}:${item.reason}` });
        } catch {
          // Chrome on Android has notifications from a service worker only: none here, and the mirror must not break for it
        }
      }
    },
  };
}
