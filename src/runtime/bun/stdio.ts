import { writeSync } from "node:fs";
import type { WriteStdio } from "../contract.ts";

export const writeStdio: WriteStdio = (fd, bytes) => writeSync(fd, bytes);
