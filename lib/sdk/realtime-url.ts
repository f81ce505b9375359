/**
 * The socket.io handshake URL and its length limit (SPEC section 9: 8000 characters).
 *
 * The token travels in the query string, and proxies and servers reject (or truncate) very long
 * URLs with errors that say nothing useful. So the URL is computed the way engine.io-client builds
 * it for the websocket transport, and an over-long one is refused here with a clear error instead.
 */
import { RealtimeErrorCodes, type RealtimeProblem } from './realtime-parse';

export const MAX_SOCKET_URL_LENGTH = 8000;

/** The engine.io protocol revision socket.io-client 4 sends as `EIO`. */
const ENGINE_PROTOCOL = '4';

/**
 * The URL the websocket transport opens: `ws(s)://host[:port]{path}?{query}&EIO=4&transport=websocket`,
 * with engine.io-client's encoding (encodeURIComponent on names and values). `serverUrl` "" means
 * this page's origin.
 */
export function socketHandshakeUrl(serverUrl: string, path: string, query: Record<string, string>): string {
  const base = serverUrl || (typeof location === 'undefined' ? 'http://localhost' : location.origin);
  const url = new URL(base);
  const scheme = url.protocol === 'https:' ? 'wss' : 'ws';
  const encoded = Object.entries({ ...query, EIO: ENGINE_PROTOCOL, transport: 'websocket' })
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  // url.host omits default ports, as engine.io-client does.
  return `${scheme}://${url.host}${path}?${encoded}`;
}

/** The problem of an over-long handshake URL, or null when it fits. */
export function socketUrlProblem(serverUrl: string, path: string, query: Record<string, string>): RealtimeProblem | null {
  const length = socketHandshakeUrl(serverUrl, path, query).length;
  if (length <= MAX_SOCKET_URL_LENGTH) return null;
  return {
    message:
      `The real-time socket URL would be ${length} characters, over the limit of ${MAX_SOCKET_URL_LENGTH}, so it was ` +
      'not sent. The app id or access token is too long.',
    code: RealtimeErrorCodes.urlTooLong,
    data: { length, limit: MAX_SOCKET_URL_LENGTH },
  };
}
