import { closeSync, ftruncateSync, openSync } from "node:fs";
import { DEFAULT_OUTPUT_CAP } from "../../protocol/config.ts";
import type { ChunkRepo } from "../../store/chunks.ts";
import type { Logger } from "../../events/log.ts";
import { punchHole } from "../../runtime/punch-hole.ts";
import type { TailedFile } from "./tailed-file.ts";

/** Most output dropped under the cap in one pass (a bounded transaction, like a read pass). */
const DROP_PER_PASS = 8 * 1024 * 1024;
/**
 * Once a drop leaves more free pages than this, they all go back to the file system, this many
 * per pass. Fewer are left for new output to reuse: a steady flood at the cap frees a few MiB at a
 * time and refills them at once, and giving them back only to grow the file again is wasted work.
 */
const KEEP_FREE_BYTES = 16 * 1024 * 1024;
const VACUUM_PAGES_PER_PASS = 256;
const BLOCK = 4096;
/** Most of a raw file's stored bytes freed in one pass. */
const RELEASE_BYTES = 16 * 1024 * 1024;

/**
 * What is kept of agents' output: each agent's stored output is capped (oldest chunks dropped, a
 * marker in their place, a bounded pass at a time), the store's free pages go back to the file
 * system once many are free, and what is stored is released from the raw files once they pass the
 * cap (a hole while the agent writes, emptied at the session's end).
 */
export class Retention {
  private readonly overCap = new Set<string>();
  private vacuum = false;
  private canRelease = true;
  private current = DEFAULT_OUTPUT_CAP;

  constructor(
    private readonly chunks: ChunkRepo,
    private readonly log: Logger,
    private readonly capFn: () => number = () => DEFAULT_OUTPUT_CAP,
  ) {}

  /** Stored output per agent, in bytes, as last read (see refreshCap). */
  get cap(): number {
    return this.current;
  }

  /** Reads the cap again (at start and at each session start); a config that fails to read keeps the last. */
  refreshCap(): void {
    try {
      this.current = this.capFn();
    } catch (err) {
      this.log.warn(`output cap unchanged (${this.current} bytes)`, err);
    }
  }

  /** A store from before the cap (or a lowered cap): every agent over it is brought under, a pass at a time. */
  start(): void {
    this.refreshCap();
    for (const id of this.chunks.agentsOver(this.current)) this.overCap.add(id);
  }

  /** Whether a maintenance pass has work (an agent over the cap, pages to give back). */
  get due(): boolean {
    return this.overCap.size > 0 || this.vacuum;
  }

  /**
   * An agent's output was removed: its free pages go back to the file system, a pass at a time like
   * any other maintenance, unless few are left (new output reuses them). Whether a pass is due now.
   */
  releaseSpace(): boolean {
    if (this.chunks.freeBytes() <= KEEP_FREE_BYTES) return false;
    this.vacuum = true;
    return true;
  }

  /** What a read pass stored, per agent: an agent past the cap is cut down in the next maintenance passes. */
  stored(bytesByAgent: ReadonlyMap<string, number>): void {
    for (const [agentId, bytes] of bytesByAgent) if (bytes > this.current) this.overCap.add(agentId);
  }

  /** The store refused a write: maintenance waits for the next news rather than loop on it. */
  reset(): void {
    this.overCap.clear();
    this.vacuum = false;
  }

  /** One bounded maintenance pass: one agent cut down under the cap, else a batch of free pages given back. */
  pass(): void {
    const [agentId] = this.overCap;
    if (agentId !== undefined) {
      const { stored } = this.chunks.usage(agentId);
      // drop a little below the cap, so a flood drops every few MiB rather than at every pass
      const slack = Math.min(this.current / 8, 4 * 1024 * 1024);
      const left = stored > this.current ? this.chunks.dropOldest(agentId, stored - this.current + slack, DROP_PER_PASS, this.current) : stored;
      if (left <= this.current) this.overCap.delete(agentId);
      if (left < stored && this.chunks.freeBytes() > KEEP_FREE_BYTES) this.vacuum = true;
      return;
    }
    this.vacuum = this.chunks.releaseFreePages(VACUUM_PAGES_PER_PASS) > 0;
  }

  /**
   * Frees the stored part of a raw file once it holds more than the cap, as a hole: the agent's
   * O_APPEND writes and the stored offsets are untouched, and nothing written meanwhile is lost
   * (truncating could lose what the agent wrote between the last read and the truncate).
   */
  releaseStored(t: TailedFile): void {
    if (!this.canRelease) return;
    if (t.releaseTo <= t.released) {
      if (t.offset - t.released < this.current) return;
      t.releaseTo = Math.floor(t.offset / BLOCK) * BLOCK;
    }
    // a pass at a time: freeing 256 MiB of blocks at once held the loop for ~60 ms
    const to = Math.min(t.releaseTo, t.released + RELEASE_BYTES);
    let ok: boolean;
    try {
      ok = punchHole(t.path, t.released, to);
    } catch {
      return; // gone (the agent was removed)
    }
    if (ok) t.released = to;
    else {
      this.canRelease = false;
      this.log.warn(`cannot free stored output in ${t.path} (no hole punching here): raw files are emptied only when their session ends`);
    }
  }

  /** The end of a finished session's file (`size` bytes, all stored): a file over the cap, or released from, is emptied. */
  finished(t: TailedFile, size: number): void {
    if (t.released === 0 && size <= this.current) return;
    try {
      const fd = openSync(t.path, "r+");
      try {
        ftruncateSync(fd, 0);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      this.log.warn(`emptying ${t.path} failed`, err);
    }
  }
}
