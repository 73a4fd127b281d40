import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { followPage, type PageSource } from "./sources.ts";
import { notifier } from "./notify.ts";

/**
 * The web page (docs/web.md): the dashboard's mirror and list in the browser, over the sources
 * the web process follows. Its shell gives the login's CSRF token; the sources come from
 * `/api/sources`; every call after goes through the API table's client.
 */
async function start(): Promise<void> {
  const root = createRoot(document.getElementById("root")!);
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="troupe-csrf"]')?.content ?? "";
  const loggedOut = () => root.render(<p className="banner down">This login has ended. Open a new login link (troupe web login).</p>);
  // in the shell (one round trip less); else asked for
  const given = document.querySelector<HTMLMetaElement>('meta[name="troupe-sources"]')?.content;
  let sources: PageSource[];
  if (given) sources = JSON.parse(given) as PageSource[];
  else {
    const res = await fetch("/api/sources", { credentials: "same-origin" });
    if (res.status === 401) return loggedOut();
    sources = (await res.json()) as PageSource[];
  }
  const notify = notifier();
  const followed = followPage(sources, csrf, loggedOut, notify.attention);
  followed.mirror.start();
  root.render(<App followed={followed} notify={notify} />);
}

void start();
