// What zod's `locales` namespace holds in troupe's binary (see compile.ts, zodEnglishOnly): English,
// the language of every message troupe shows, which zod also loads by itself as its default.
export { default as en } from "zod/v4/locales/en.js";
