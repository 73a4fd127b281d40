/**
 * A stand-in npm registry on 127.0.0.1 that serves the tarballs `npm run dist` packed (dist/npm/):
 * each package's document is made from the package.json inside its tarball, with the tarball's
 * sha512 and sha1, as the real registry would publish it. Pointed at it (`--registry`), npm
 * installs troupe the way a stranger's npm would, choosing the optional platform package by
 * os/cpu/libc, without reaching the network; a name it does not hold is a 404.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

export interface Registry {
  url: string;
  /** The package names it serves. */
  names: string[];
  stop(): void;
}

interface Entry {
  manifest: Record<string, unknown> & { name: string; version: string };
  file: string;
  bytes: Uint8Array;
}

function manifestOf(tarball: string): Entry["manifest"] {
  const r = Bun.spawnSync(["tar", "-xzOf", tarball, "package/package.json"], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`no package.json in ${tarball}: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as Entry["manifest"];
}

export function startRegistry(tarballs: string[]): Registry {
  const entries = new Map<string, Entry>();
  for (const file of tarballs) {
    const manifest = manifestOf(file);
    entries.set(manifest.name, { manifest, file: basename(file), bytes: readFileSync(file) });
  }
  const byFile = new Map([...entries.values()].map((e) => [e.file, e]));
  const server: Bun.Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const path = decodeURIComponent(new URL(req.url).pathname).slice(1);
      const tarball = /^-\/tarballs\/(.+)$/.exec(path);
      if (tarball) {
        const e = byFile.get(tarball[1]!);
        return e ? new Response(e.bytes, { headers: { "content-type": "application/octet-stream" } }) : new Response("not found", { status: 404 });
      }
      const e = entries.get(path);
      if (!e) return Response.json({ error: "not found" }, { status: 404 });
      const { name, version } = e.manifest;
      const dist = {
        tarball: `${server.url.origin}/-/tarballs/${e.file}`,
        integrity: `sha512-${createHash("sha512").update(e.bytes).digest("base64")}`,
        shasum: createHash("sha1").update(e.bytes).digest("hex"),
      };
      return Response.json({ name, "dist-tags": { latest: version }, versions: { [version]: { ...e.manifest, _id: `${name}@${version}`, dist } } });
    },
  });
  return { url: server.url.origin, names: [...entries.keys()], stop: () => server.stop(true) };
}
