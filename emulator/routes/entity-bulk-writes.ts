import { readJsonBody } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { updateBulk } from '../records/changes';
import { updateMatching } from '../records/update-many';
import { upsertRecords } from '../records/upsert';
import { scopeOf } from './entity-request';

/**
 * Writes of @base44/sdk 0.8.50 on many records at once: `updateMany` (MongoDB update operators on
 * every match), `bulkUpdate` (each record its own fields) and `upsert` (create or update by a key
 * of your own). The records layer validates every batch as a whole before anything is stored.
 */
export function registerEntityBulkWriteRoutes(router: Router, context: EmulatorContext, base: string): void {
  router.add('PATCH', `${base}/update-many`, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    return jsonReply(200, await request.clock.run(() => updateMatching(context, target, body)));
  });

  router.add('PUT', `${base}/bulk`, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    return jsonReply(200, await request.clock.run(() => updateBulk(context, target, body)));
  });

  router.add('POST', `${base}/upsert`, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    return jsonReply(200, await request.clock.run(() => upsertRecords(context, target, body)));
  });
}
