/**
 * The HTML the web process serves: the login page (the one thing served without a login, and no
 * script on it) and the page's shell, which loads the bundle (src/web/page/). Both under a policy
 * that allows nothing from anywhere but this origin, and nothing inline but the login page's style.
 */

/** What every answer of the web process carries. */
export const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  // same-origin, not no-referrer: with no-referrer a form's post carries `Origin: null`, and the login checks it
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

const APP_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const LOGIN_STYLE = "body{font:16px system-ui,sans-serif;max-width:28rem;margin:15vh auto;padding:0 1rem;color:#222}button{font:inherit;padding:.6rem 1.4rem}p.err{color:#b00}";
const LOGIN_POLICY = `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(body: string, policy: string, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${body}</html>\n`, {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": policy, ...extra },
  });
}

/**
 * The login page. With a token (a login URL opened), a button that posts it: a link previewer
 * that fetches the URL does not spend the token, only the person's press does.
 */
export function loginPage(token: string | null, error: string | null = null, status = 200): Response {
  const form = token
    ? `<form method="post" action="/login"><input type="hidden" name="t" value="${escapeHtml(token)}"><button type="submit">Log in to troupe</button></form>`
    : `<p>Open the login link that <code>troupe web start</code> or <code>troupe web login</code> printed.</p>`;
  const err = error ? `<p class="err">${escapeHtml(error)}</p>` : "";
  return html(`<title>troupe: log in</title><style>${LOGIN_STYLE}</style></head><body><h1>troupe</h1>${err}${form}</body>`, LOGIN_POLICY, status);
}

/**
 * The page's shell: its bundle (the chunks the entry imports preloaded beside it) and style, and
 * the sources it follows (on a slow link each round trip saved is half a second). No secret: the
 * cookie alone fetches it, and the cookie reaches every port of the host.
 */
export function appPage(entry: string, preload: readonly string[], sources: unknown): Response {
  const links = preload.map((c) => `<link rel="modulepreload" href="/app/${escapeHtml(c)}">`).join("");
  return html(
    `<title>troupe</title><meta name="troupe-sources" content="${escapeHtml(JSON.stringify(sources))}"><meta name="theme-color" content="#1d2230"><link rel="manifest" href="/manifest.webmanifest"><link rel="stylesheet" href="/app/page.css"><script type="module" src="/app/${escapeHtml(entry)}"></script>${links}</head><body><div id="root"></div></body>`,
    APP_POLICY,
  );
}

/** The web app manifest: added to a phone's home screen, the page may notify (iOS allows it only then). */
export const MANIFEST = JSON.stringify({ name: "troupe", short_name: "troupe", start_url: "/", display: "standalone", background_color: "#1d2230", theme_color: "#1d2230" });
