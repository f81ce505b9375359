import { createHash } from 'node:crypto';

import { escapeHtml } from '../http/reply';

/**
 * The emulator's login page: a server-rendered form that works without JavaScript, with labels,
 * autocomplete hints and an error announced to assistive technology. Every value put into the page
 * is escaped; the stylesheet is allowed by its hash, so the CSP can forbid everything else.
 */

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f4f5;color:#18181b}
main{background:#fff;padding:2rem;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.15);width:min(24rem,calc(100vw - 2rem))}
h1{font-size:1.4rem;margin:0 0 .25rem}
p{margin:.25rem 0 1rem;color:#3f3f46}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #71717a;border-radius:.4rem;font:inherit}
input:focus-visible,select:focus-visible,button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
button{margin-top:1.25rem;width:100%;padding:.7rem;border:0;border-radius:.4rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.error{color:#b91c1c;font-weight:600;border-left:4px solid #b91c1c;padding-left:.6rem}
`;

export const LOGIN_STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

export interface LoginFormView {
  fromUrl: string;
  /** The apps to choose from; one entry renders a hidden field instead of a select. */
  apps: { id: string; name: string }[];
  selectedAppId: string;
  email?: string;
  error?: string;
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  );
}

function appField(view: LoginFormView): string {
  if (view.apps.length === 1) {
    return `<input type="hidden" name="app_id" value="${escapeHtml(view.selectedAppId)}">`;
  }
  const options = view.apps
    .map(
      (app) =>
        `<option value="${escapeHtml(app.id)}"${app.id === view.selectedAppId ? ' selected' : ''}>${escapeHtml(app.name)} (${escapeHtml(app.id)})</option>`,
    )
    .join('');
  return `<label for="app_id">App</label><select id="app_id" name="app_id">${options}</select>`;
}

export function renderLoginForm(view: LoginFormView): string {
  const selected = view.apps.find((app) => app.id === view.selectedAppId);
  const described = view.error ? ' aria-describedby="login-error" aria-invalid="true"' : '';
  const error = view.error ? `<p id="login-error" class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  return page(
    'Log in - local platform emulator',
    `<h1>Log in${selected && view.apps.length === 1 ? ` to ${escapeHtml(selected.name)}` : ''}</h1>` +
      `<p>Local platform emulator. After logging in you return to ${escapeHtml(new URL(view.fromUrl).origin)}.</p>` +
      error +
      `<form method="post" action="/login">` +
      `<input type="hidden" name="from_url" value="${escapeHtml(view.fromUrl)}">` +
      appField(view) +
      `<label for="email">E-mail</label>` +
      `<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(view.email ?? '')}"${described}>` +
      `<label for="password">Password</label>` +
      `<input id="password" name="password" type="password" autocomplete="current-password" required${described}>` +
      `<button type="submit">Log in</button></form>`,
  );
}

export function renderRefusal(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`);
}

/** CSP of the login page: only its own stylesheet, posting to itself, redirecting to allowed sites. */
export function loginPageCsp(allowedOrigins: Iterable<string>): string {
  // Browsers apply form-action to the redirect after the POST too, so the site origins must be named.
  const targets = ["'self'", ...allowedOrigins].join(' ');
  return `default-src 'none'; style-src '${LOGIN_STYLE_HASH}'; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`;
}
