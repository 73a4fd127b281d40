import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { Logger } from "../events/log.ts";

/** Keys remembered: far more than the occurrences a daemon restart could publish again. */
const KEEP = 2000;

const SentFileSchema = z.object({ keys: z.array(z.string()) });

/**
 * The notice keys already acted on, kept in a file of the workspace's state folder: a new daemon
 * (after a crash, an upgrade) that publishes an agent's state again does not notify it again.
 * Bounded (the newest KEEP); a missing or unreadable file is an empty record, logged.
 */
export class SentLog {
  private readonly keys: Set<string>;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {
    this.keys = new Set(this.read());
  }

  private read(): string[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    const parsed = SentFileSchema.safeParse(json);
    if (parsed.success) return parsed.data.keys;
    this.log.warn(`notify: ${this.path} is not a record of sent notices; starting afresh`);
    return [];
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    this.keys.add(key);
    if (this.keys.size > KEEP) this.keys.delete(this.keys.values().next().value!);
    const tmp = `${this.path}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ keys: [...this.keys] }));
      renameSync(tmp, this.path);
    } catch (err) {
      this.log.warn(`notify: cannot record sent notices in ${this.path}`, err);
    }
  }
}
