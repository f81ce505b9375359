import type { Caller } from '../auth/caller';
import { USER_ENTITY } from '../core/types';
import type { EntityDefinitions } from '../entities/definition';
import { RecordSecurity, type RecordRules } from './security';
import { UserSecurity } from './user-security';

/** The rules of `entity` for `caller`: the project's (row and field), and for `User` its own as well. */
export function recordRules(
  definitions: EntityDefinitions,
  appId: string,
  entity: string,
  caller: Caller,
): RecordRules {
  const project = RecordSecurity.of(definitions, appId, entity, caller);
  return entity === USER_ENTITY ? new UserSecurity(caller, project, appId) : project;
}
