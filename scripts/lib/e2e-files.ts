/**
 * Which e2e files are a provider's: each file whose name holds the provider's name as whole words
 * between dashes (`pi.test.ts`, `mcp-gemini.test.ts`, `claude-live.test.ts`; not `api-*.test.ts`),
 * given to the longest name it holds: `codex-acp.test.ts` is codex-acp's, not codex's.
 */
export function e2eFilesOf(name: string, files: readonly string[], names: readonly string[]): string[] {
  const words = (s: string) => s.split("-");
  const holds = (base: string[], n: string[]) => base.some((_, i) => n.every((w, j) => base[i + j] === w));
  return files.filter((f) => {
    if (!f.endsWith(".test.ts")) return false;
    const base = words(f.slice(0, -".test.ts".length));
    const owners = names.filter((n) => holds(base, words(n)));
    const longest = owners.sort((a, b) => words(b).length - words(a).length)[0];
    return longest === name;
  });
}
