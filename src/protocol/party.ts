/** "user" is the person in a conversation or a message; anything else is an agent id. Zod-free: the web page reads it. */
export const USER = "user";
