const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"];

/** 1288490188 → "1.2 GiB"; whole numbers lose their ".0" ("256 MiB", "64 KiB"). */
export function formatBytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const s = u === 0 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1).replace(/\.0$/, "");
  return `${s} ${UNITS[u]}`;
}
