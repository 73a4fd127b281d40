import { expect, test } from "bun:test";
import { gitSshCommand, gitUrl } from "../../src/hosts/host-runs.ts";

test("git reaches a host's repository at the remote's path over ssh://, its port and user kept, ~ from the login folder", () => {
  expect(gitUrl({ host: "box", path: "/srv/api" })).toBe("ssh://box/srv/api");
  expect(gitUrl({ host: "dee@10.0.0.2", port: 2222, path: "/srv/api" })).toBe("ssh://dee@10.0.0.2:2222/srv/api");
  expect(gitUrl({ host: "dee@::1", port: 22, path: "~/src/api" })).toBe("ssh://dee@[::1]:22/~/src/api");
  expect(gitUrl({ host: "box", path: "src/api" })).toBe("ssh://box/~/src/api");
});

test("git's ssh is the links' OpenSSH: TROUPE_SSH_COMMAND or ssh, never a prompt, a connect timeout, keep-alives", () => {
  expect(gitSshCommand({ TROUPE_SSH_COMMAND: "ssh -F /tmp/x/ssh_config", TROUPE_REMOTE_TIMEOUT: "7" })).toBe(
    "ssh -F /tmp/x/ssh_config -o BatchMode=yes -o ConnectTimeout=7 -o ServerAliveInterval=5 -o ServerAliveCountMax=3",
  );
  expect(gitSshCommand({})).toBe("ssh -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3");
  // the daemon's pushes and fetches to a host share one connection, kept a little after the last
  expect(gitSshCommand({}, "/run/user/1/troupe")).toBe(
    "ssh -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -o ControlMaster=auto -o ControlPath=/run/user/1/troupe/git-%C -o ControlPersist=15",
  );
  // a folder whose socket path would pass the system's limit (macOS's $TMPDIR) shares nothing
  expect(gitSshCommand({}, `/var/folders/zz/${"x".repeat(40)}/T/troupe-501`)).not.toContain("ControlMaster");
});
