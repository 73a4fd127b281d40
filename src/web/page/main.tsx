import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { followPage, type PageSource } from "./sources.ts";
import { notifier } from "./notify.ts";

/** Where the login's key is kept: this origin's own storage (a page on another port has its own). */
const KEY_STORE = "troupe-key";

/** The key the login handed over in the fragment (then taken out of the address bar), else the one kept. */
function pageKey(): string {
  const given = /^#k=([\w-]+)$/.exec(location.hash)?.[1];
  if (given) {
    localStorage.setItem(KEY_STORE, given);
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(KEY_STORE) ?? "";
}

/**
 * The web page (docs/web.md): the dashboard's mirror and list in the browser, over the sources
 * the web process follows. Its login's key comes once in the URL's fragment (the login's redirect)
 * and is kept in this origin's storage; the sources come from
 * `/api/sources`; every call after goes through the API table's client.
 */
async function start(): Promise<void> {
  const root = createRoot(document.getElementById("root")!);
  const key = pageKey();
  const loggedOut = () => root.render(<p className="banner down">This login has ended. Open a new login link (troupe web login).</p>);
  // in the shell (one round trip less); else asked for
  const given = document.querySelector<HTMLMetaElement>('meta[name="troupe-sources"]')?.content;
  let sources: PageSource[];
  if (given) sources = JSON.parse(given) as PageSource[];
  else {
    const res = await fetch("/api/sources", { credentials: "same-origin", headers: { "x-troupe-key": key } });
    if (res.status === 401) return loggedOut();
    sources = (await res.json()) as PageSource[];
  }
  const notify = notifier();
  const followed = followPage(sources, key, loggedOut, notify.attention);
  followed.mirror.start();
  root.render(<App followed={followed} notify={notify} />);
}

void start();
