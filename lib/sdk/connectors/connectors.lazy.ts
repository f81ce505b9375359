/**
 * Connectors: OAuth connections to outside services (reference `connectors`). The user's side starts
 * and ends the app user's own connection; the service role reads tokens and calls the connector
 * proxy. Loaded on first use.
 */
import { invalidArgument } from '../core/errors';
import type { CallOptions, ModuleContext } from '../core/transport';
import { apiPath, isPlainObject } from '../core/validate';

export interface ConnectorConnection {
  accessToken: string;
  connectionConfig: Record<string, string> | null;
}

export type ConnectorApiResponsePhase = 'not_sent' | 'responded' | 'timed_out' | 'sent_unconfirmed';

/** A request for the connector proxy to send to the outside service. */
export interface ConnectorApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  host?: string;
  path: string;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The outside service's answer; its failures arrive here with `success: false`, not as errors. */
export interface ConnectorApiResponse<T = unknown> {
  success: boolean;
  phase: ConnectorApiResponsePhase;
  status: number | null;
  data: T | null;
  dataBase64: string | null;
  contentType: string | null;
  headers: Record<string, string>;
  creditsCharged: number;
}

/** `client.connectors`: the signed-in app user's own connections. */
export interface UserConnectorsModule {
  /** Starts connecting; resolves with the provider's consent page address to send the user to. */
  connectAppUser(connectorId: string, options?: CallOptions): Promise<string>;
  disconnectAppUser(connectorId: string, options?: CallOptions): Promise<void>;
}

/** `client.asServiceRole.connectors`. */
export interface ConnectorsModule {
  /** @deprecated Use {@link ConnectorsModule.getConnection}. */
  getAccessToken(integrationType: string, options?: CallOptions): Promise<string>;
  getConnection(integrationType: string, options?: CallOptions): Promise<ConnectorConnection>;
  getWorkspaceConnection(connectorId: string, options?: CallOptions): Promise<ConnectorConnection>;
  /** @deprecated Use {@link ConnectorsModule.getCurrentAppUserConnection}. */
  getCurrentAppUserAccessToken(connectorId: string, options?: CallOptions): Promise<string>;
  getCurrentAppUserConnection(connectorId: string, options?: CallOptions): Promise<ConnectorConnection>;
  callApi<T = unknown>(
    integrationType: string,
    request: ConnectorApiRequest,
    options?: CallOptions,
  ): Promise<ConnectorApiResponse<T>>;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

/** The reference's checks and messages, so callers see the same errors. */
function required(label: string, value: unknown): string {
  if (!value || typeof value !== 'string') throw invalidArgument(`${label} is required and must be a string`);
  return value;
}

interface TokenAnswer {
  access_token: string;
  connection_config?: Record<string, string> | null;
}

const connection = (answer: TokenAnswer): ConnectorConnection => ({
  accessToken: answer.access_token,
  connectionConfig: answer.connection_config ?? null,
});

export function createUserConnectorsModule({ transport, appId }: ModuleContext): UserConnectorsModule {
  const path = (id: unknown) => apiPath`/apps/${appId}/app-user-auth/connectors/${required('Connector ID', id)}`;
  return {
    async connectAppUser(connectorId, options) {
      const answer = await transport.request<{ redirect_url: string }>(
        { method: 'POST', path: `${path(connectorId)}/initiate` },
        options,
      );
      return answer.redirect_url;
    },
    async disconnectAppUser(connectorId, options) {
      await transport.request({ method: 'DELETE', path: path(connectorId) }, options);
    },
  };
}

export function createConnectorsModule({ transport, appId }: ModuleContext): ConnectorsModule {
  const read = (path: string, options?: CallOptions) =>
    transport.request<TokenAnswer>({ method: 'GET', path }, options);
  const tokenPath = (type: unknown) =>
    apiPath`/apps/${appId}/external-auth/tokens/${required('Integration type', type)}`;
  const workspacePath = (id: unknown) =>
    apiPath`/apps/${appId}/external-auth/tokens/connectors/${required('Connector ID', id)}`;
  const appUserPath = (id: unknown) =>
    `${apiPath`/apps/${appId}/app-user-auth/connectors/${required('Connector ID', id)}`}/token`;
  return {
    getAccessToken: async (type, options) => (await read(tokenPath(type), options)).access_token,
    getConnection: async (type, options) => connection(await read(tokenPath(type), options)),
    getWorkspaceConnection: async (id, options) => connection(await read(workspacePath(id), options)),
    getCurrentAppUserAccessToken: async (id, options) => (await read(appUserPath(id), options)).access_token,
    getCurrentAppUserConnection: async (id, options) => connection(await read(appUserPath(id), options)),
    async callApi<T>(integrationType: string, request: ConnectorApiRequest, options?: CallOptions) {
      const path = `${apiPath`/apps/${appId}/connectors/${required('Integration type', integrationType)}`}/call`;
      if (!isPlainObject(request)) throw invalidArgument('Request is required and must be an object');
      required('Request path', request.path);
      const method = request.method ?? 'GET';
      if (!METHODS.has(method))
        throw invalidArgument('Request method must be one of GET, POST, PUT, PATCH, DELETE, or HEAD');
      const answer = await transport.request<Record<string, unknown>>(
        {
          method: 'POST',
          path,
          body: {
            method,
            ...(request.host == null ? {} : { host: request.host }),
            path: request.path,
            query: request.query ?? {},
            headers: request.headers ?? {},
            body: request.body ?? null,
          },
        },
        options,
      );
      return {
        success: answer.success as boolean,
        phase: answer.phase as ConnectorApiResponsePhase,
        status: (answer.status_code as number | undefined) ?? null,
        data: answer.data as T | null,
        dataBase64: (answer.data_base64 as string | undefined) ?? null,
        contentType: (answer.content_type as string | undefined) ?? null,
        headers: (answer.headers as Record<string, string> | undefined) ?? {},
        creditsCharged: (answer.credits_charged as number | undefined) ?? 0,
      };
    },
  };
}
