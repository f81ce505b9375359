/**
 * The modules a user client and its service role both have, built by one factory: the two differ
 * only in the transport (whose token goes into `Authorization`) and in which token a few raw calls
 * carry, and this context says exactly that.
 */
import { createAgentsModule, type AgentsModule } from '../agents/agents';
import { createAiGatewayModule, type AiGatewayModule } from '../ai-gateway/ai-gateway';
import { createAppLogsModule, type AppLogsModule } from '../app-logs/app-logs';
import type { FetchLike, Transport } from '../core/transport';
import type { EntityFields, EntitySchemas } from '../core/types';
import {
  createEntitiesModule,
  createEntityHandler,
  type EntitiesModule,
  type EntityHandler,
} from '../entities/entities';
import { createFunctionsModule, type FunctionsModule } from '../functions/functions';
import type { IntegrationsModule } from '../integrations/integration-types';
import { createIntegrationsModule } from '../integrations/integrations';
import type { RealtimeSubscriptions } from '../realtime/realtime-loader';

export interface RoleModuleContext {
  /** Carries this role's credentials on every request. */
  transport: Transport;
  appId: string;
  serverUrl: string;
  fetch: FetchLike | undefined;
  functionsVersion: string | undefined;
  realtime: () => RealtimeSubscriptions;
  /** The `Authorization` value of raw function calls (streaming), or null for none. */
  functionsAuthorization: () => string | null;
  /** The token of the AI gateway's connection. */
  gatewayToken: () => string | null;
  /** The user's token: the WhatsApp link carries it, never a service token (links get shared and logged). */
  userToken: () => string | null;
}

export interface RoleModules<S extends EntitySchemas> {
  entities: EntitiesModule<S>;
  entity<T extends object = EntityFields>(name: string): EntityHandler<T>;
  integrations: IntegrationsModule;
  functions: FunctionsModule;
  agents: AgentsModule;
  appLogs: AppLogsModule;
  aiGateway: AiGatewayModule;
}

export function createRoleModules<S extends EntitySchemas>(context: RoleModuleContext): RoleModules<S> {
  const { transport, appId, serverUrl, realtime } = context;
  const entityContext = { transport, appId, realtime };
  return {
    entities: createEntitiesModule<S>(entityContext),
    entity: (name) => createEntityHandler(entityContext, name),
    integrations: createIntegrationsModule({ transport, appId }),
    functions: createFunctionsModule({
      transport,
      appId,
      functionsVersion: context.functionsVersion,
      raw: { serverUrl, fetch: context.fetch, authorization: context.functionsAuthorization },
    }),
    agents: createAgentsModule({ transport, appId, serverUrl, getToken: context.userToken, realtime }),
    appLogs: createAppLogsModule({ transport, appId }),
    aiGateway: createAiGatewayModule({ serverUrl, appId, getToken: context.gatewayToken }),
  };
}
