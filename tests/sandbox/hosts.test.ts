import { describe, expect, test } from "bun:test";
import { hostAllowed, urlHost } from "../../src/sandbox/hosts.ts";
import { HOST_RULE, SandboxConfigSchema } from "../../src/protocol/sandbox.ts";

describe("network allow's host rules", () => {
  test("a name is that name, any port, case aside; with a port, that port only", () => {
    expect(hostAllowed(["Example.com"], "example.COM", 443)).toBe(true);
    expect(hostAllowed(["example.com"], "example.com.", 80)).toBe(true);
    expect(hostAllowed(["example.com"], "api.example.com", 443)).toBe(false);
    expect(hostAllowed(["example.com"], "example.com.evil.test", 443)).toBe(false);
    expect(hostAllowed(["example.com:443"], "example.com", 443)).toBe(true);
    expect(hostAllowed(["example.com:443"], "example.com", 80)).toBe(false);
  });

  test("*. is the subdomains, not the domain itself nor a name that only ends alike", () => {
    expect(hostAllowed(["*.example.com"], "api.example.com", 443)).toBe(true);
    expect(hostAllowed(["*.example.com"], "a.b.example.com", 443)).toBe(true);
    expect(hostAllowed(["*.example.com"], "example.com", 443)).toBe(false);
    expect(hostAllowed(["*.example.com"], "evilexample.com", 443)).toBe(false);
  });

  test("addresses: IPv4, and IPv6 in brackets", () => {
    expect(hostAllowed(["127.0.0.1:8080"], "127.0.0.1", 8080)).toBe(true);
    expect(hostAllowed(["127.0.0.1:8080"], "127.0.0.2", 8080)).toBe(false);
    expect(hostAllowed(["[::1]:8080"], "::1", 8080)).toBe(true);
    expect(hostAllowed(["[::1]"], "[::1]", 9)).toBe(true);
    expect(hostAllowed([], "example.com", 443)).toBe(false);
  });

  test("a model API's base URL gives its host and port", () => {
    expect(urlHost("http://127.0.0.1:4010/v1")).toBe("127.0.0.1:4010");
    expect(urlHost("https://api.example.com")).toBe("api.example.com:443");
    expect(urlHost("not a url")).toBeNull();
  });

  test("the config refuses what is not a host, in its own words", () => {
    for (const ok of ["example.com", "*.example.com:443", "10.0.0.1", "[::1]:80", "localhost"]) expect(HOST_RULE.test(ok)).toBe(true);
    for (const bad of ["https://example.com", "example.com/path", "*", "a b", "*.*.com", ""]) expect(HOST_RULE.test(bad)).toBe(false);
    const r = SandboxConfigSchema.safeParse({ allowHosts: ["https://example.com"] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("a host (example.com, *.example.com, 10.0.0.1 or [::1]), optionally with :PORT");
  });
});
