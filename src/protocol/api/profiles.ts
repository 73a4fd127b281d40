import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

/** Agent profiles: files anyone here can read; an agent picks one for the workers it spawns. */
export const PROFILE_ENDPOINTS = {
  profiles: endpoint({
    method: "GET",
    path: "/v1/profiles",
    summary: "Every usable profile, every broken file with why, and the files a same-named profile shadows (read afresh at every call).",
    rule: "anyone",
    does: "read profiles",
    reply: reply.whole(schema("profiles", "ProfilesResponseSchema")),
  }),
  profile: endpoint({
    method: "GET",
    path: "/v1/profiles/:name",
    summary: "One profile by name; a broken one is 400 with its file, field and reason.",
    rule: "anyone",
    does: "read profiles",
    params: { name: "a profile's name" },
    reply: reply.key(schema("profiles", "ProfileResponseSchema"), "profile"),
  }),
} as const;
