import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../events/log.ts";
import { withFrontMatter } from "./input-files.ts";
import { parseDecision, type Decision } from "./proposals.ts";

/**
 * The decisions discuss agents took, kept with their initiative as the markdown files they wrote
 * (`.troupe/work/<initiative id>/decisions/<slug>.md`, the daemon's copy, not the agent's): every
 * later mode agent of the initiative gets them as `context/decisions/`, and `troupe initiative
 * show` lists them. Not part of the goal: the goal is what the person wrote (or accepted from a
 * refine); decisions are how it is to be reached. A later decision of the same slug replaces it.
 */
export class DecisionStore {
  constructor(
    private readonly stateDir: string,
    private readonly log: Logger,
  ) {}

  private dir(initiativeId: string): string {
    return join(this.stateDir, "work", initiativeId, "decisions");
  }

  list(initiativeId: string): Decision[] {
    const dir = this.dir(initiativeId);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
    } catch {
      return [];
    }
    const out: Decision[] = [];
    for (const name of names) {
      try {
        out.push(parseDecision(name, name, readFileSync(join(dir, name), "utf8")));
      } catch (err) {
        this.log.warn(`decision ${join(dir, name)} is unreadable; left out`, err);
      }
    }
    return out;
  }

  /** Each decision written whole (a temp file renamed), so a crash leaves old or new, never half. */
  save(initiativeId: string, decisions: Decision[]): void {
    const dir = this.dir(initiativeId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of decisions) {
      const tmp = join(dir, `.${d.slug}.${process.pid}.tmp`);
      writeFileSync(tmp, withFrontMatter({ title: d.title }, d.body), { mode: 0o600 });
      renameSync(tmp, join(dir, `${d.slug}.md`));
    }
  }
}
