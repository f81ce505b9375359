import { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { registerAgentRoutes } from '../routes/agents';
import { registerAnalyticsRoutes } from '../routes/analytics';
import { registerAppLogRoutes } from '../routes/app-logs';
import { registerAuthRoutes } from '../routes/auth';
import { registerConnectorRoutes } from '../routes/connectors';
import { registerCustomIntegrationRoutes } from '../routes/custom-integrations';
import { registerEmulatorToolRoutes } from '../routes/emulator-tools';
import { registerEntityRoutes } from '../routes/entities';
import { registerFileRoutes } from '../routes/files';
import { registerFunctionFetchRoutes } from '../routes/function-fetch';
import { registerFunctionRoutes } from '../routes/functions';
import { registerIntegrationRoutes } from '../routes/integrations';
import { registerLoginRoutes } from '../routes/login';
import { registerPasswordRoutes } from '../routes/password-routes';
import { registerPublicSettingsRoutes } from '../routes/public-settings';
import { registerUserMeRoutes } from '../routes/user-me';
import { registerUserRoutes } from '../routes/users';

/** Every route of the emulator, one API area per file of routes/. */
export function buildRouter(context: EmulatorContext): Router {
  const router = new Router();
  // Order matters only where a literal segment and a parameter compete: User/me before :entity/:id.
  registerUserMeRoutes(router, context);
  registerEntityRoutes(router, context);
  registerUserRoutes(router, context);
  registerPublicSettingsRoutes(router, context);
  registerAuthRoutes(router, context);
  registerPasswordRoutes(router, context);
  registerIntegrationRoutes(router, context);
  registerCustomIntegrationRoutes(router, context);
  registerConnectorRoutes(router, context);
  registerFunctionRoutes(router, context);
  registerFunctionFetchRoutes(router, context);
  registerAgentRoutes(router, context);
  registerAppLogRoutes(router, context);
  registerAnalyticsRoutes(router, context);
  registerFileRoutes(router, context);
  registerEmulatorToolRoutes(router, context);
  registerLoginRoutes(router, context);
  return router;
}
