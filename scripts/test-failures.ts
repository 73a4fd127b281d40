/**
 * What broke: each failed test's name with its error, and what it received
 * instead (bun prints a test's error and diff above its "(fail)" line).
 */
export function whatBroke(output: string): string {
  const broke: string[] = [];
  let block: string[] = [];
  for (const line of output.split("\n")) {
    if (line.startsWith("(pass)")) block = [];
    else if (line.startsWith("(fail)")) {
      const name = line.replace(/^\(fail\)\s*/, "").replace(/\s*\[[\d.]+m?s\]$/, "");
      const error = block.find((l) => /^(error|timed out)/i.test(l.trim()))?.trim();
      const got = block.filter((l) => /^\+\s+\S/.test(l) && !/^\+ Received/.test(l)).map((l) => l.replace(/^\+\s+/, ""));
      const received = got.length ? `received ${got.join(" ").slice(0, 200)}` : undefined;
      broke.push([name, error, received].filter(Boolean).join(": "));
      block = [];
    } else block.push(line);
  }
  if (broke.length === 0) return output.split("\n").filter((l) => l.trim()).at(-1) ?? "no output";
  return `${broke.length} failed: ${broke.map((b) => b.slice(0, 400)).join(" | ")}`;
}
