/** One `allowHosts` entry, parsed: the host (lower case, `*.` kept, brackets dropped) and the port it names, if any. */
interface HostRule {
  host: string;
  port: number | null;
}

function parseRule(rule: string): HostRule {
  const m = /^(.*?)(?::(\d+))?$/.exec(rule.startsWith("[") ? rule.replace(/^\[([^\]]*)\]/, (_, ip: string) => `{${ip}}`) : rule)!;
  const host = m[1]!.replace(/^\{(.*)\}$/, "$1").toLowerCase();
  return { host, port: m[2] === undefined ? null : Number(m[2]) };
}

/** The host of a URL (a model API's base URL), as an `allowHosts` entry with its port; null when it is not a URL. */
export function urlHost(url: string): string | null {
  try {
    const u = new URL(url);
    if (!u.hostname) return null;
    const port = u.port || (u.protocol === "https:" ? "443" : u.protocol === "http:" ? "80" : "");
    return port ? `${u.hostname}:${port}` : u.hostname;
  } catch {
    return null;
  }
}

/**
 * Whether `host:port` is one the rules allow: the same name (case aside), a subdomain of a
 * `*.` rule (not the domain itself), and the port a rule names, when it names one.
 */
export function hostAllowed(rules: readonly string[], host: string, port: number): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
  return rules.some((r) => {
    const rule = parseRule(r);
    if (rule.port !== null && rule.port !== port) return false;
    return rule.host.startsWith("*.") ? h.endsWith(rule.host.slice(1)) && h.length > rule.host.length - 1 : h === rule.host;
  });
}
