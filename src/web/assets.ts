import { gzipSync } from "node:zlib";
import bundle from "./assets.gen.json" with { type: "json" };
import { SECURITY_HEADERS } from "./pages.ts";

/**
 * The page's files, built into the binary: `scripts/build-web.ts` bundles src/web/page/ for the
 * browser into assets.gen.json (not kept in git; every build and the type check make it), which
 * this import carries into the bundle of either runtime. Nothing is fetched from anywhere else.
 */
interface Bundle {
  entry: string;
  /** The chunks the entry imports statically: the shell preloads them. */
  preload: string[];
  files: Record<string, string>;
}

const TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

interface Asset {
  type: string;
  plain: Uint8Array;
  gzip: Uint8Array;
}

let assets: Map<string, Asset> | null = null;

function load(): Map<string, Asset> {
  if (assets) return assets;
  assets = new Map();
  for (const [name, text] of Object.entries((bundle as Bundle).files)) {
    const plain = new TextEncoder().encode(text);
    assets.set(name, { type: TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream", plain, gzip: gzipSync(plain, { level: 9 }) });
  }
  return assets;
}

/** The bundle's entry module, which the page's shell loads. */
export const PAGE_ENTRY = (bundle as Bundle).entry;
export const PAGE_PRELOAD = (bundle as Bundle).preload;

/** One of the page's files, gzipped where the browser takes it; null for a name the bundle has not. */
export function assetResponse(name: string, acceptEncoding: string | null): Response | null {
  const a = load().get(name);
  if (!a) return null;
  const gz = /\bgzip\b/.test(acceptEncoding ?? "");
  // chunks are named by their content: kept for good; the entry's name stays, so it is checked again
  const cache = name === PAGE_ENTRY || name.endsWith(".css") ? "no-cache" : "public, max-age=31536000, immutable";
  return new Response(gz ? a.gzip : a.plain, {
    headers: { ...SECURITY_HEADERS, "content-type": a.type, "cache-control": cache, vary: "accept-encoding", ...(gz && { "content-encoding": "gzip" }) },
  });
}
