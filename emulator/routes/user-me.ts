import { authorize } from '../auth/caller';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { readMe, updateMe } from '../records/users';

/** `auth.me()` and `auth.updateMe(data)`: the caller's own `User` record (rules: model/user-security.ts). */
export function registerUserMeRoutes(router: Router, context: EmulatorContext): void {
  const path = '/api/apps/:appId/entities/User/me';

  router.add('GET', path, (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    return jsonReply(200, readMe(context, app, caller));
  });

  router.add('PUT', path, async (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    return jsonReply(200, await updateMe(context, app, caller, body));
  });
}
