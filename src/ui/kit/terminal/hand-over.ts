/**
 * Whether the terminal is handed over to another program (an agent's CLI taken over, the
 * person's editor): while it is, nothing of the dashboard's may draw on it. Ink keeps its own
 * frames off it (`suspendTerminal`); this tells what draws outside Ink (the rows' clock ticks).
 */
let handedOver = 0;

/** Runs `fn` with the terminal marked as handed over. */
export async function whileHandedOver<T>(fn: () => Promise<T>): Promise<T> {
  handedOver++;
  try {
    return await fn();
  } finally {
    handedOver--;
  }
}

export const isHandedOver = (): boolean => handedOver > 0;
