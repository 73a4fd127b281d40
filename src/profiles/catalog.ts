import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import { readGuarded } from "../guarded-fs.ts";
import { isTrusted } from "../trust.ts";
import type { BrokenProfile, Profile, ProfileOrigin, ProfilesResponse } from "../protocol/profile.ts";
import { parseClaudeAgent, parseProfile } from "./parse.ts";

/** A profile is a role's page of instructions, not a codebase; also keeps it under one argv string (128 KiB). */
const MAX_PROFILE_BYTES = 64 * 1024;
/** Per folder: more files than this are not profiles anyone keeps. */
const MAX_PROFILE_FILES = 500;

/** Where profiles come from, first wins on a name: the repository's, Claude Code's subagents, the user's. */
function profileDirs(root: string, env: NodeJS.ProcessEnv = process.env): { dir: string; source: ProfileOrigin }[] {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return [
    { dir: join(root, ".troupe", "profiles"), source: "repository" },
    { dir: join(root, ".claude", "agents"), source: "claude" },
    { dir: join(config, "troupe", "profiles"), source: "user" },
  ];
}

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort()
      .slice(0, MAX_PROFILE_FILES);
  } catch {
    return [];
  }
}

/**
 * The profiles of one workspace, read afresh at every call (a profile edited or pulled takes
 * effect at the next spawn, as the workspace config does). Files are untrusted input: the
 * repository's come from whoever pushed; each is read as an agent's file is (regular files
 * inside its folder, at most MAX_PROFILE_BYTES).
 */
export class ProfileCatalog {
  constructor(
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  read(): ProfilesResponse {
    const profiles: Profile[] = [];
    const broken: BrokenProfile[] = [];
    const shadowed: ProfilesResponse["shadowed"] = [];
    const byName = new Map<string, Profile>();
    for (const { dir, source } of profileDirs(this.root, this.env)) {
      for (const name of markdownFiles(dir)) {
        const file = join(dir, name);
        try {
          const p = this.readOne(file, dir, source);
          const first = byName.get(p.name);
          if (first) {
            shadowed.push({ name: p.name, file, by: first.file });
            continue;
          }
          byName.set(p.name, p);
          profiles.push(p);
        } catch (err) {
          broken.push({ file, source, error: errorMessage(err) });
        }
      }
    }
    return { profiles, broken, shadowed };
  }

  /** The profile named `name`; a broken file of that name is refused with its reason. */
  get(name: string): Profile {
    const all = this.read();
    const found = all.profiles.find((p) => p.name === name);
    if (found) return found;
    const broken = all.broken.find((b) => b.file.endsWith(`/${name}.md`));
    if (broken) throw new TroupeError("bad_request", `profile '${name}' is broken: ${broken.error}`);
    throw new TroupeError("not_found", `no profile '${name}' (see 'troupe profile ls')`);
  }

  private readOne(file: string, dir: string, source: ProfileOrigin): Profile {
    const read = readGuarded(file, { maxBytes: MAX_PROFILE_BYTES, root: dir, rootName: "its profiles folder" });
    if (read.kind === "missing") throw new TroupeError("not_found", `${file}: gone while reading`);
    if (read.kind === "refused") throw new TroupeError("bad_request", read.reason);
    const p = source === "claude" ? parseClaudeAgent(file, read.text) : parseProfile(file, read.text, source);
    // the repository's profile starts commands, and loosens the sandbox, only once the person trusted its current bytes
    const needsTrust = p.mcpServers !== null || p.sandbox !== null;
    if (needsTrust && source === "repository") return { ...p, trusted: isTrusted(file, this.env, read.text) };
    return needsTrust ? { ...p, trusted: true } : p;
  }
}
