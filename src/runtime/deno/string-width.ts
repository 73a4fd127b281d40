export { default as stringWidth } from "../portable/string-width.ts";
