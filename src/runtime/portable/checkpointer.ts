import type { Checkpointer, CheckpointResult, StartCheckpointer } from "../contract.ts";

/** How a worker reaches SQLite in one runtime: its import line, and the statements that open and checkpoint. */
export interface WorkerSqlite {
  /** e.g. `import { Database } from "bun:sqlite";` */
  imports: string;
  /** An expression of `path`: the connection. */
  open: string;
  /** An expression of `db`: the row of `PRAGMA wal_checkpoint(PASSIVE)`. */
  checkpoint: string;
}

/**
 * The worker's whole program, as source: a compiled binary holds no worker file to point at
 * (a module URL resolves differently from source and from the binary), and a blob module
 * works in both. It opens its own connection and answers each message with one checkpoint.
 */
const workerSource = (sql: WorkerSqlite) => `
${sql.imports}
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
      db = ${sql.open};
      db.exec("PRAGMA synchronous = NORMAL");
    }
    const r = ${sql.checkpoint};
    postMessage({ id, result: { busy: r.busy !== 0, log: r.log, checkpointed: r.checkpointed } });
  } catch (err) {
    postMessage({ id, error: String(err?.message ?? err) });
  }
};
`;

/** One blob for the process, never revoked: the worker loads it after `new Worker` returns. */
let workerUrl: string | null = null;

/** What the host does with its worker once made; Bun's unref() keeps an idle one from holding the process. */
export type OnWorker = (w: Worker) => void;

interface Reply {
  id: number;
  result?: CheckpointResult;
  error?: string;
}

/** The contract's checkpointer over one runtime's SQLite binding. */
export const checkpointerOver = (sql: WorkerSqlite, onWorker: OnWorker): StartCheckpointer => (path) => {
  let worker: Worker | null = null;
  let seq = 0;
  let closed = false;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const start = (): Worker => {
    workerUrl ??= URL.createObjectURL(new Blob([workerSource(sql)], { type: "application/javascript" }));
    const w = new Worker(workerUrl, { type: "module" });
    onWorker(w);
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
