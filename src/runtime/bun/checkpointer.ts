import type { Checkpointer, CheckpointResult, StartCheckpointer } from "../contract.ts";

/**
 * The worker's whole program, as source: a compiled binary holds no worker file to point at
 * (a module URL resolves differently from source and from the binary), and a blob module
 * works in both. It opens its own connection and answers each message with one checkpoint.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
self.onmessage = (e) => {
  const { id, path, close } = e.data;
  if (close) {
    db?.close();
    self.close();
    return;
  }
  try {
    if (!db) {
      db = new Database(path);
      db.exec("PRAGMA synchronous = NORMAL");
    }
    const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
    postMessage({ id, result: { busy: r.busy !== 0, log: r.log, checkpointed: r.checkpointed } });
  } catch (err) {
    postMessage({ id, error: String(err?.message ?? err) });
  }
};
`;

/** One blob for the process, never revoked: the worker loads it after `new Worker` returns. */
let workerUrl: string | null = null;

interface Reply {
  id: number;
  result?: CheckpointResult;
  error?: string;
}

export const startCheckpointer: StartCheckpointer = (path) => {
  let worker: Worker | null = null;
  let seq = 0;
  let closed = false;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const start = (): Worker => {
    workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const w = new Worker(workerUrl, { type: "module" });
    // an idle worker must not keep the daemon alive, nor wake it
    w.unref();
    w.onmessage = (e: MessageEvent<Reply>) => {
      const p = waiting.get(e.data.id);
      if (!p) return;
      waiting.delete(e.data.id);
      if (e.data.result) p.resolve(e.data.result);
      else p.reject(new Error(e.data.error ?? "checkpoint failed"));
    };
    w.onerror = (e: ErrorEvent) => {
      worker = null;
      failAll(new Error(`checkpoint worker: ${e.message}`));
    };
    return w;
  };
  const checkpointer: Checkpointer = {
    checkpoint: () =>
      new Promise<CheckpointResult>((resolve, reject) => {
        if (closed) return reject(new Error("checkpointer closed"));
        const id = ++seq;
        waiting.set(id, { resolve, reject });
        worker ??= start();
        worker.postMessage({ id, path });
      }),
    close: () => {
      closed = true;
      if (worker) {
        worker.onerror = null;
        worker.postMessage({ close: true });
      }
      worker = null;
      failAll(new Error("checkpointer closed"));
    },
  };
  return checkpointer;
};
