import { expect, test } from "bun:test";
import { pushError, withoutCredentials } from "../../src/git/push.ts";

test("a rejected push is one line with git's reason; a moved remote branch says so", () => {
  const hook = "To /srv/origin.git\n!\trefs/heads/troupe/x:refs/heads/troupe/x\t[remote rejected] (pre-receive hook declined)\nDone\nerror: failed to push some refs to '/srv/origin.git'";
  expect(pushError("origin", "troupe/x", hook)).toMatchObject({ code: "push_rejected", message: "origin rejected the push of troupe/x (pre-receive hook declined)" });
  const moved = "To github.com:acme/w.git\n!\trefs/heads/troupe/x:refs/heads/troupe/x\t[rejected] (fetch first)\nhint: Updates were rejected";
  expect(pushError("origin", "troupe/x", moved).message).toBe("origin rejected the push of troupe/x (fetch first): origin's troupe/x has commits this one lacks");
});

test("a push that could not reach the remote, or took too long, is push_failed with git's last word", () => {
  const auth = "fatal: could not read Username for 'https://github.com': terminal prompts disabled";
  expect(pushError("origin", "troupe/x", auth)).toMatchObject({ code: "push_failed", message: "pushing troupe/x to origin failed: could not read Username for 'https://github.com': terminal prompts disabled" });
  expect(pushError("origin", "troupe/x", "block timeout reached").message).toBe("pushing troupe/x to origin took too long and was ended");
});

test("a remote's URL is shown without the credentials it may carry", () => {
  expect(withoutCredentials("https://x-access-token:ghp_abc@github.com/acme/w.git")).toBe("https://github.com/acme/w.git");
  expect(withoutCredentials("git@github.com:acme/w.git")).toBe("git@github.com:acme/w.git");
});
