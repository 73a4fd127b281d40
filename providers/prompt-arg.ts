/**
 * Linux refuses (E2BIG) any single argument or environment string over 128 KiB, and all of them
 * together over about 2 MiB, environment included. A prompt over this size, or one holding a NUL
 * (which no argument can carry), goes to the CLI another way: stdin, or a file it reads.
 */
export const PROMPT_ARG_MAX_BYTES = 64 * 1024;

/** Whether `prompt` can be passed as one command-line argument or environment variable. */
export function fitsInArgument(prompt: string): boolean {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most prompts need no encoding to be measured.
  if (prompt.length * 3 > PROMPT_ARG_MAX_BYTES && Buffer.byteLength(prompt, "utf8") > PROMPT_ARG_MAX_BYTES) return false;
  return !prompt.includes("\0");
}
