export const command = null as never;
