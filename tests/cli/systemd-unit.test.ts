import { expect, test } from "bun:test";
import { systemdUnavailable, unitName, unitText } from "../../src/cli/systemd-unit.ts";

test("the systemd user unit starts the workspace's daemon at login, quoting a path with spaces", () => {
  const text = unitText({ workspace: "/home/me/my repo", command: ["/usr/local/bin/troupe"] });
  expect(text).toBe(`[Unit]
Description=troupe daemon for /home/me/my repo

[Service]
Type=simple
ExecStart=/usr/local/bin/troupe daemon run --workspace "/home/me/my repo"
WorkingDirectory="/home/me/my repo"
Restart=on-failure
RestartSec=5

[Install]
WantedBy=default.target
`);
  expect(unitName("/home/me/my repo")).toMatch(/^troupe-[0-9a-f]{12}\.service$/);
  expect(unitName("/a")).not.toBe(unitName("/b"));
});

test("where no systemd user manager runs, it says why", () => {
  // this machine has no systemd as init; either reason is a sentence, never a crash
  expect(systemdUnavailable({ XDG_RUNTIME_DIR: "/nonexistent" })).toMatch(/^(systemd is not this machine's init|no systemd user manager runs for this user)/);
  expect(systemdUnavailable({})).not.toBeNull();
});
