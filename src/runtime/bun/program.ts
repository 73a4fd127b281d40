import type { Program } from "../contract.ts";

export const program: Program = {
  args: () => process.argv.slice(2),
  env: (name) => process.env[name],
  cwd: () => process.cwd(),
  pid: () => process.pid,
  platform: () => `${process.platform}-${process.arch}`,
  uid: () => process.getuid?.(),
  exit: (code) => process.exit(code),
};
