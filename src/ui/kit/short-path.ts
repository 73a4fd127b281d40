/** `~/work/api` for a folder under $HOME, else the path as it is: how the dashboard names a workspace. */
export function shortPath(p: string): string {
  const home = process.env.HOME;
  return home && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p;
}
