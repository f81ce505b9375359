/**
 * Provider sign-in from inside a frame (the platform editor's preview): OAuth providers refuse to be
 * framed, so the sign-in opens in a popup, which hands the token back by postMessage. Loaded only
 * when a framed page signs in.
 */
import { storeToken } from '../token/token-store';

const WIDTH = 500;
const HEIGHT = 600;
const CLOSED_POLL_MS = 500;

/**
 * Opens `url` in a centred popup and waits for `{ access_token, is_new_user }` from it. Only a message
 * from `expectedOrigin` whose source is that popup counts. The token is stored (never put into an
 * address), then the page goes to `returnTo` (with `is_new_user` when the platform sent it).
 */
export function loginViaPopup(
  url: string,
  returnTo: string,
  expectedOrigin: string,
  navigate: (url: string) => void,
): void {
  const left = Math.round(window.screenX + (window.outerWidth - WIDTH) / 2);
  const top = Math.round(window.screenY + (window.outerHeight - HEIGHT) / 2);
  const popup = window.open(
    url,
    'base44_auth',
    `width=${WIDTH},height=${HEIGHT},left=${left},top=${top},resizable=yes,scrollbars=yes`,
  );
  if (!popup) return;

  const cleanup = () => {
    window.removeEventListener('message', onMessage);
    clearInterval(closedPoll);
    if (!popup.closed) popup.close();
  };
  function onMessage(event: MessageEvent): void {
    if (event.origin !== expectedOrigin || event.source !== popup) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return;
    const { access_token: token, is_new_user: isNewUser } = data as { access_token?: unknown; is_new_user?: unknown };
    if (typeof token !== 'string' || token === '') return;
    cleanup();
    storeToken(token);
    const target = new URL(returnTo);
    if (isNewUser !== undefined && isNewUser !== null) target.searchParams.set('is_new_user', String(isNewUser));
    navigate(target.href);
  }
  // Only to notice a popup closed before signing in.
  const closedPoll = setInterval(() => {
    if (popup.closed) cleanup();
  }, CLOSED_POLL_MS);
  window.addEventListener('message', onMessage);
}
