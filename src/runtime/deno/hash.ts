import { createHash } from "node:crypto";
import type { Sha256Hex } from "../contract.ts";

export const sha256Hex: Sha256Hex = (text) => createHash("sha256").update(text).digest("hex");
