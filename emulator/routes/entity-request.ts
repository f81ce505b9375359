import { authorize } from '../auth/caller';
import type { RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { recordScope, type RecordScope } from '../records/scope';

/** The records scope a request of the entity API names: its app, its caller, its `:entity`. */
export function scopeOf(context: EmulatorContext, request: RouteRequest): RecordScope {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  return recordScope(context, app, caller, request.params.entity as string);
}
