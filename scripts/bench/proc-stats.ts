/**
 * What a running process costs, from /proc (Linux): its proportional set size (a page shared by
 * n processes counted 1/n in each: several runners of one binary share its code), its CPU
 * (utime + stime, all threads, 10 ms ticks) and its wake-ups (context switches over its threads),
 * and the processes below it.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Pss, its anonymous part (the process's own heap and stacks, what one more of it adds) and Rss of `pid` in kB (smaps_rollup), or null once it is gone. */
export function memoryKb(pid: number): { pss: number; anon: number; rss: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? NaN);
    return { pss: field("Pss"), anon: field("Pss_Anon"), rss: field("Rss") };
  } catch {
    return null;
  }
}

/** utime + stime of `pid` (every thread's, ended ones too), in ticks of 10 ms; 0 once it is gone. */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/** Context switches (voluntary and not) of each thread of `pid` alive now, by thread id: about one per wake-up. */
export function switches(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/status`, "utf8");
      out.set(`${pid}/${t}`, Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(s)?.[1] ?? 0) + Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(s)?.[1] ?? 0));
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

/** The switches between two samples: each thread alive at the second counted from the first (or from its start); what ended threads did is missing. */
export function switchesBetween(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const [tid, v] of b) n += v - (a.get(tid) ?? 0);
  return n;
}

/** The command line of `pid`, its arguments joined by spaces ("" once it is gone). */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every process below `root` (children, theirs, ...), from one pass over /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Sums of a set of processes: PSS, its anonymous part and RSS (MB), CPU ticks; and their threads' switches. */
export function totals(pids: number[]): { pssMB: number; anonMB: number; rssMB: number; ticks: number; switches: Map<string, number> } {
  let pss = 0;
  let anon = 0;
  let rss = 0;
  let ticks = 0;
  const sw = new Map<string, number>();
  for (const p of pids) {
    const m = memoryKb(p);
    pss += m?.pss ?? 0;
    anon += m?.anon ?? 0;
    rss += m?.rss ?? 0;
    ticks += cpuTicks(p);
    for (const [tid, v] of switches(p)) sw.set(tid, v);
  }
  return { pssMB: pss / 1024, anonMB: anon / 1024, rssMB: rss / 1024, ticks, switches: sw };
}
