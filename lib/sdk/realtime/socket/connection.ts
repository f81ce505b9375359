/**
 * The one socket of a client: opened on the first subscription or watch (socket.io-client is
 * imported then), re-authenticated on every reconnect with the current token, reconnected after the
 * server's own disconnect, closed by `close()`. What arrives is handed on unparsed; nothing a handler
 * does can throw out of socket.io's event loop.
 */
import type { PlatformError } from '../../core/errors';
import { SOCKET_OPTIONS, type PlatformSocket, type RealtimeConfig, type RealtimeDependencies } from '../realtime-types';
import { socketHandshake } from './handshake';
import { RealtimeErrorCodes, type RealtimeProblem } from './parse';

/** What the connection tells the rooms and live queries that use it. */
export interface ConnectionListener {
  connected(): void;
  disconnected(): void;
  /** A server event other than the connection's own (`update_model`, `error`, `subscribed`). */
  received(event: 'update_model' | 'error' | 'subscribed', payload: unknown): void;
  /** A problem of the whole connection, for everyone who listens. */
  failed(error: PlatformError): void;
  /** Whether anyone still listens: only then is the socket worth opening. */
  wanted(): boolean;
}

/** A refused connection (`connect_error` that socket.io will not retry), with the server's code if any. */
function refusedConnection(error: unknown): RealtimeProblem {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  const code = typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  const message =
    error instanceof Error && error.message ? error.message : 'The real-time server refused the connection';
  return { message, code: typeof code === 'string' ? code : RealtimeErrorCodes.connectionRefused, data, cause: error };
}

/** Wraps a handler so nothing the server sends can throw out of socket.io's event loop. */
function guarded<Args extends unknown[]>(handler: (...args: Args) => void): (...args: Args) => void {
  return (...args) => {
    try {
      handler(...args);
    } catch (error) {
      console.error('[platform-sdk] real-time handler failed:', error);
    }
  };
}

export class RealtimeConnection {
  private socket: PlatformSocket | undefined;
  private opening: Promise<void> | undefined;
  /** Set while the handshake URL is over the limit: new subscribers learn why nothing arrives. */
  private urlProblem: PlatformError | undefined;
  /** Bumped by close(): a socket whose import finishes after close() must not connect. */
  private generation = 0;

  constructor(
    private readonly config: RealtimeConfig,
    private readonly dependencies: RealtimeDependencies,
    private readonly listener: ConnectionListener,
  ) {}

  toError({ message, ...details }: RealtimeProblem): PlatformError {
    return new this.dependencies.PlatformError(message, details);
  }

  /** Why nothing can be sent now (the handshake URL is too long), if that is so. */
  get problem(): PlatformError | undefined {
    return this.urlProblem;
  }

  isConnected(): boolean {
    return this.socket?.connected === true;
  }

  /** Sends while connected; never queued (a queued join would repeat the reconnect's own). */
  emit(event: 'join' | 'leave', room: string): void;
  emit(event: 'subscribe_query' | 'unsubscribe_query', payload: Record<string, unknown>): void;
  emit(
    event: 'join' | 'leave' | 'subscribe_query' | 'unsubscribe_query',
    payload: string | Record<string, unknown>,
  ): void {
    // The overloads above pair each event with its payload; socket.io's typing cannot see through the union.
    if (this.isConnected()) this.socket?.emit(event, payload as never);
  }

  /** Opens the socket unless it is open or opening. */
  open(): void {
    if (this.socket || this.opening) return;
    const openedIn = this.generation;
    this.opening = import('socket.io-client')
      .then(({ io }) => {
        // Everyone may have left while the client loaded.
        if (openedIn !== this.generation || this.socket || !this.listener.wanted()) return;
        const current = this.checkedQuery();
        if (!current) return;
        // forceNew: two clients for the same server must not share (and close) one connection.
        const connection: PlatformSocket = io(this.config.serverUrl || undefined, {
          ...SOCKET_OPTIONS,
          forceNew: true,
          query: current,
        });
        this.attach(connection);
        this.socket = connection;
      })
      .catch((error: unknown) => {
        this.listener.failed(
          this.toError({
            message: 'Could not load the real-time client',
            code: RealtimeErrorCodes.unavailable,
            cause: error,
          }),
        );
      })
      .finally(() => {
        this.opening = undefined;
      });
  }

  /** Reconnects with the current token (after a login or logout). */
  refreshToken(): void {
    const socket = this.socket;
    if (!socket) {
      // Never opened, or refused for its URL length: try again with the new token.
      if (this.listener.wanted()) this.open();
      return;
    }
    const current = this.checkedQuery();
    // disconnect() fires 'disconnect' (everything unjoined) before connect() starts the new handshake.
    socket.disconnect();
    if (!current) return;
    socket.io.opts.query = current;
    socket.connect();
  }

  close(): void {
    this.generation += 1;
    this.urlProblem = undefined;
    this.socket?.disconnect();
    this.socket = undefined;
    this.opening = undefined;
  }

  /** The current handshake query, or undefined (after telling everyone) when its URL is too long. */
  private checkedQuery(): Record<string, string> | undefined {
    const handshake = socketHandshake(this.config.serverUrl, SOCKET_OPTIONS.path, {
      appId: this.config.appId,
      token: this.config.getToken(),
      visitorId: this.config.getVisitorId,
    });
    this.urlProblem = handshake.problem ? this.toError(handshake.problem) : undefined;
    if (!this.urlProblem) return handshake.query;
    this.listener.failed(this.urlProblem);
    return undefined;
  }

  private attach(connection: PlatformSocket): void {
    const { listener } = this;
    connection.on(
      'connect',
      guarded(() => listener.connected()),
    );
    connection.on(
      'disconnect',
      guarded((reason: string) => this.dropped(connection, reason)),
    );
    connection.on(
      'update_model',
      guarded((message: unknown) => listener.received('update_model', message)),
    );
    connection.on(
      'error',
      guarded((payload: unknown) => listener.received('error', payload)),
    );
    connection.on(
      'subscribed',
      guarded((payload: unknown) => listener.received('subscribed', payload)),
    );
    connection.on(
      'connect_error',
      guarded((error: unknown) => {
        // An active socket is retrying (server down, network): not an error of any room yet.
        if (!connection.active) listener.failed(this.toError(refusedConnection(error)));
      }),
    );
    // Each automatic reconnect re-reads the token, so it never reconnects with a stale one.
    connection.io.on(
      'reconnect_attempt',
      guarded(() => {
        const current = this.checkedQuery();
        if (current) connection.io.opts.query = current;
        else connection.disconnect();
      }),
    );
  }

  private dropped(connection: PlatformSocket, reason: string): void {
    this.listener.disconnected();
    // socket.io never reconnects after the server's own disconnect(); without this a client the
    // server kicked once would stay offline for good. The longest backoff delay keeps it polite.
    if (reason === 'io server disconnect') {
      setTimeout(() => {
        if (this.socket === connection && !connection.active && this.listener.wanted()) connection.connect();
      }, SOCKET_OPTIONS.reconnectionDelayMax);
    }
  }
}
