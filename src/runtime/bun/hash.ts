import type { Sha256Hex } from "../contract.ts";

export const sha256Hex: Sha256Hex = (text) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
