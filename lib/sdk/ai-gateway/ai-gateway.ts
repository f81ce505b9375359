/**
 * `aiGateway`: the connection details of the platform's OpenAI-compatible gateway for this app (a
 * base URL and the user token as the API key). Needs no request code: nothing is sent from here.
 */
import { invalidArgument } from '../core/errors';
import { apiPath } from '../core/validate';

export interface AiGatewayConnection {
  /** An OpenAI-compatible base URL for this app. */
  baseURL: string;
  /** The user token to send as the API key ("" when signed out). */
  token: string;
}

export interface AiGatewayModule {
  connection(options?: { provider?: 'openai' | 'typesafe' }): AiGatewayConnection;
}

interface AiGatewayContext {
  serverUrl: string;
  appId: string;
  getToken: () => string | null;
}

export function createAiGatewayModule({ serverUrl, appId, getToken }: AiGatewayContext): AiGatewayModule {
  return {
    connection({ provider = 'openai' } = {}) {
      if (provider !== 'openai' && provider !== 'typesafe')
        throw invalidArgument(`Unsupported AI Gateway provider: ${String(provider)}`);
      return { baseURL: `${serverUrl}/api${apiPath`/apps/${appId}/ai/${provider}`}/v1`, token: getToken() ?? '' };
    },
  };
}
