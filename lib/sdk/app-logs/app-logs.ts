/**
 * Usage logs of the app (docs/SPEC.md section 7).
 */
import type { CallOptions, ModuleContext, QueryParams } from '../core/transport';
import { apiPath, assertPathSegment } from '../core/validate';

export interface AppLogsModule {
  /** Records that the signed-in user visited `pageName`. */
  logUserInApp(pageName: string, options?: CallOptions): Promise<void>;
  /** Reads the app's logs; `params` become query parameters. */
  fetchLogs(params?: QueryParams, options?: CallOptions): Promise<unknown>;
  /** Reads usage statistics; `params` become query parameters. */
  getStats(params?: QueryParams, options?: CallOptions): Promise<unknown>;
}

export function createAppLogsModule({ transport, appId }: ModuleContext): AppLogsModule {
  const logsPath = apiPath`/app-logs/${appId}`;
  return {
    async logUserInApp(pageName, options) {
      const page = encodeURIComponent(assertPathSegment('Page name', pageName));
      await transport.request({ method: 'POST', path: `${logsPath}/log-user-in-app/${page}` }, options);
    },
    fetchLogs: (params, options) => transport.request({ method: 'GET', path: logsPath, query: params }, options),
    getStats: (params, options) =>
      transport.request({ method: 'GET', path: `${logsPath}/stats`, query: params }, options),
  };
}
