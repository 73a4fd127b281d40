import { z } from "zod";
import { PermissionPolicySchema } from "./permission.ts";
import { SandboxConfigSchema } from "./sandbox.ts";

/** Notifications when an agent needs the person or ends (issue 12). */
const NotifyConfigSchema = z.object({
  /** A shell command the daemon runs per notification, with TROUPE_AGENT, TROUPE_AGENT_ID, TROUPE_REASON, TROUPE_TEXT. */
  command: z.string().min(1).optional(),
  /** Seconds in which a second notification for the same agent and reason is dropped. */
  quietSeconds: z.number().nonnegative().optional(),
  /**
   * Whether dashboards also write desktop-notification escapes: true for both OSC 9 and OSC 777,
   * or only one of them (a terminal that knows both would show two). Off when absent.
   */
  desktop: z.union([z.boolean(), z.enum(["osc9", "osc777"])]).optional(),
});
export type NotifyConfig = z.infer<typeof NotifyConfigSchema>;

/** Pull requests (`troupe pr`) where gh is not installed or not logged in: GitHub's REST API. */
const GitHubConfigSchema = z.object({
  /**
   * The GitHub Enterprise server this block is for: its host name as the remotes name it
   * (`ghe.example.com`). Unset: github.com. A remote on any other host opens no pull request (its
   * host gets no token).
   */
  host: z.string().min(1).max(253).optional(),
  /** The API's base URL: a GitHub Enterprise server's (`https://ghe.example.com/api/v3`); else derived from the host. */
  apiUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** A token that may open pull requests there; the caller's GH_TOKEN or GITHUB_TOKEN (github.com), GH_ENTERPRISE_TOKEN (an Enterprise host) comes first. */
  token: z.string().min(1).optional(),
});
export type GitHubConfig = z.infer<typeof GitHubConfigSchema>;

/**
 * `~/.config/troupe/config.json` (`$XDG_CONFIG_HOME/troupe/config.json`): the user's own settings,
 * never a repository's: what runs commands on the person's behalf (`notify.command`) lives only here.
 * Unknown keys are dropped with a warning, as in the workspace config.
 */
export const UserConfigSchema = z.object({
  notify: NotifyConfigSchema.optional(),
  permissions: PermissionPolicySchema.optional(),
  /** Agents' sandbox (src/sandbox/), over the workspace config's. */
  sandbox: SandboxConfigSchema.optional(),
  github: GitHubConfigSchema.optional(),
});
export type UserConfig = z.infer<typeof UserConfigSchema>;
