export * from "./entities.ts";
export * from "./signal.ts";
export * from "./output.ts";
export * from "./events.ts";
export * from "./api.ts";
export * from "./config.ts";
export * from "./work.ts";
export * from "./message.ts";
