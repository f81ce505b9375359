import { callerFromToken, checkAppAccess, normaliseToken, requireApp } from '../auth/caller';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/** `GET /apps/public/prod/public-settings/by-id/{appId}`: `{ id, public_settings }` or the access gate's 403. */
export function registerPublicSettingsRoutes(router: Router, context: EmulatorContext): void {
  router.add('GET', '/api/apps/public/prod/public-settings/by-id/:appId', (request) => {
    const app = requireApp(context, request.params.appId as string);
    // A stale or foreign token must lead to the login page (403 auth_required), not to a 401 the
    // site cannot recover from: the reference client loops forever on a dead token.
    const header = request.headers.authorization ?? '';
    const token = normaliseToken(/^Bearer\s+(\S+)$/i.exec(header)?.[1]);
    const caller = callerFromToken(context, app, token) ?? { kind: 'anonymous' as const };
    checkAppAccess(app, caller);
    return jsonReply(200, {
      id: app.id,
      public_settings: {
        name: app.name,
        access: app.access,
        requires_auth: app.access !== 'public',
        registered_users_only: app.access === 'registered_only',
      },
    });
  });
}
