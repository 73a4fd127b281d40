import { TroupeError } from "../errors.ts";
import type { Profile } from "../protocol/profile.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/** `troupe profile ls|show|validate`: the profiles the daemon reads, as a spawn would see them. */
export const command = defineCommand({
  name: "profile",
  intro: `  profiles are Markdown files with front matter: .troupe/profiles/*.md (the repository's),
  .claude/agents/*.md (Claude Code's subagents), ~/.config/troupe/profiles/*.md (yours);
  the first of a name wins. validate exits 1 when a file is broken, naming file, field, reason.`,
  flags: {},
  forms: {
    ls: { usage: "[--json]", flags: [], run: (args) => run("ls", args) },
    show: { usage: "NAME [--json]", flags: [], run: (args) => run("show", args) },
    validate: { usage: "[NAME] [--json]", flags: [], run: (args) => run("validate", args) },
  },
});

async function run(sub: "ls" | "show" | "validate", args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm(sub, args);
  const [name, ...extra] = positionals;
  if (extra.length) throw new TroupeError("usage", `profile ${sub} takes at most one NAME`);
  const { client } = await connect(values.workspace);
  switch (sub) {
    case "ls": {
      const all = await client.profiles();
      if (values.json) return printJson(all).then(() => 0);
      const rows = all.profiles.map((p) => `${p.name.padEnd(20)} ${(p.provider ?? "-").padEnd(8)} ${p.source.padEnd(10)} ${p.description ?? ""}`);
      await stdout.write(rows.length ? `${rows.join("\n")}\n` : "no profiles (.troupe/profiles/*.md, .claude/agents/*.md, ~/.config/troupe/profiles/*.md)\n");
      for (const b of all.broken) await stdout.write(`broken: ${b.error}\n`);
      return 0;
    }
    case "show": {
      if (!name) throw new TroupeError("usage", "profile show takes a NAME");
      const p = await client.profile(name);
      if (values.json) return printJson(p).then(() => 0);
      await stdout.write(describe(p));
      return 0;
    }
    case "validate": {
      // one named profile (refused with its reason), or every file: exit 1 when any is broken
      if (name) {
        const p = await client.profile(name);
        if (values.json) await printJson({ ok: true, profile: p });
        else await stdout.write(`${p.file}: ok\n`);
        return 0;
      }
      const all = await client.profiles();
      if (values.json) await printJson({ ok: all.broken.length === 0, broken: all.broken, shadowed: all.shadowed });
      else {
        for (const p of all.profiles) await stdout.write(`${p.file}: ok${p.trusted === false ? " (mcpServers wait for 'troupe trust FILE')" : ""}\n`);
        for (const s of all.shadowed) await stdout.write(`${s.file}: not used, '${s.name}' is ${s.by}\n`);
        for (const b of all.broken) await stdout.write(`${b.error}\n`);
      }
      return all.broken.length ? 1 : 0;
    }
  }
}

function describe(p: Profile): string {
  const fields: [string, unknown][] = [
    ["file", p.file],
    ["source", p.source],
    ["description", p.description],
    ["provider", p.provider],
    ["model", p.model],
    ["mode", p.mode],
    ["permissions", p.permissions],
    ["allowedTools", p.allowedTools?.join(", ")],
    ["mcpServers", p.mcpServers && `${Object.keys(p.mcpServers).join(", ")}${p.trusted === false ? " (not trusted: troupe trust FILE)" : ""}`],
    ["budget", p.budget !== null ? `$${p.budget} over all its runs` : null],
  ];
  const head = fields.filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}: ${String(v)}`);
  return `${p.name}\n${head.map((l) => `  ${l}`).join("\n")}\n\n${p.instructions}\n`;
}
