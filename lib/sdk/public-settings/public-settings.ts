/**
 * The app's public settings, the first call of every page load (docs/SPEC.md section 4).
 */
import type { CallOptions, ModuleContext } from '../core/transport';
import type { PublicSettingsResponse } from '../core/types';
import { apiPath } from '../core/validate';

export interface PublicSettingsModule {
  /**
   * `GET /apps/public/prod/public-settings/by-id/{appId}`. A 403 carries `data.extra_data.reason`
   * (`auth_required`, `user_not_registered`, ...).
   */
  get(options?: CallOptions): Promise<PublicSettingsResponse>;
}

export function createPublicSettingsModule({ transport, appId }: ModuleContext): PublicSettingsModule {
  const path = apiPath`/apps/public/prod/public-settings/by-id/${appId}`;
  return { get: (options) => transport.request({ method: 'GET', path }, options) };
}
