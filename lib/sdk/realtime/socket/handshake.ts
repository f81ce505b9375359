/**
 * The socket.io handshake: its query (who connects) and URL, and the URL's length limit
 * (docs/SPEC.md section 9: 8000 characters). The one place that decides what a handshake carries.
 *
 * The token travels in the query string, and proxies and servers reject (or truncate) very long
 * URLs with errors that say nothing useful. So the URL is computed the way engine.io-client builds
 * it for the websocket transport, and an over-long one is refused here with a clear error instead.
 * socket.io-client builds its own copy of the string from the same query (it takes no ready-made
 * URL); tests/integration/realtime/payload-faults.test.ts pins that both are the same.
 */
import { RealtimeErrorCodes, type RealtimeProblem } from './parse';

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

/** Who a handshake is for: the user's token, else the anonymous visitor id, else nobody. */
export interface HandshakeIdentity {
  appId: string;
  token: string | null;
  /** Asked only when there is no token (it may create and store an id). */
  visitorId?: () => string;
}

/** A handshake as it will be sent: the query socket.io gets, and the URL measured from it. */
export interface SocketHandshake {
  query: Record<string, string>;
  url: string;
  /** Set when the URL is over {@link MAX_SOCKET_URL_LENGTH}: then nothing may be sent. */
  problem: RealtimeProblem | null;
}

export function socketHandshake(serverUrl: string, path: string, who: HandshakeIdentity): SocketHandshake {
  const query: Record<string, string> = { app_id: who.appId };
  if (who.token) query.token = who.token;
  else {
    const visitor = who.visitorId?.();
    if (visitor) query.anonymous_id = visitor;
  }
  const url = socketHandshakeUrl(serverUrl, path, query);
  return { query, url, problem: urlLengthProblem(url.length) };
}

function urlLengthProblem(length: number): RealtimeProblem | null {
  if (length <= MAX_SOCKET_URL_LENGTH) return null;
  return {
    message:
      `The real-time socket URL would be ${length} characters, over the limit of ${MAX_SOCKET_URL_LENGTH}, so it was ` +
      'not sent. The app id or access token is too long.',
    code: RealtimeErrorCodes.urlTooLong,
    data: { length, limit: MAX_SOCKET_URL_LENGTH },
  };
}
