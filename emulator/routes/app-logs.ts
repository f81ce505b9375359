import { authorize, requireAdmin, requireUser } from '../auth/caller';
import { invalidInput } from '../core/errors';
import type { PageVisit } from '../core/types';
import { readRawBody } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { newId } from '../store/store';

/**
 * Page-visit logs. The site logs a visit when a signed-in user opens a page; admins and the service
 * role read the log and its statistics. Old entries roll off so the store cannot grow without bound.
 */

const PAGE_NAME = /^[^\u0000-\u001f\u007f]{1,200}$/;

function parseCount(raw: string | null, name: string, fallback: number, max: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max)
    throw invalidInput(`${name} must be an integer from 0 to ${max}`, `invalid_${name}`);
  return Number(raw);
}

function selectVisits(visits: readonly PageVisit[], params: URLSearchParams): PageVisit[] {
  const page = params.get('page_name');
  const user = params.get('user_id');
  const from = params.get('from');
  const to = params.get('to');
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== null && Number.isNaN(Date.parse(value)))
      throw invalidInput(`${name} must be a date`, `invalid_${name}`);
  }
  return visits.filter(
    (visit) =>
      (page === null || visit.page_name === page) &&
      (user === null || visit.user_id === user) &&
      (from === null || Date.parse(visit.created_date) >= Date.parse(from)) &&
      (to === null || Date.parse(visit.created_date) <= Date.parse(to)),
  );
}

export function registerAppLogRoutes(router: Router, context: EmulatorContext): void {
  router.add('POST', '/api/app-logs/:appId/log-user-in-app/:pageName', async (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    const user = requireUser(caller);
    const pageName = request.params.pageName as string;
    if (!PAGE_NAME.test(pageName))
      throw invalidInput('The page name must be 1 to 200 printable characters', 'invalid_page_name');
    await readRawBody(request.raw, context.bodyLimitBytes);
    const visit: PageVisit = {
      id: newId(),
      user_id: user.account.id,
      user_email: user.account.email,
      page_name: pageName,
      created_date: context.nowIso(),
    };
    await context.store.write((change) => change.addPageVisit(app.id, visit));
    return jsonReply(200, visit);
  });

  router.add('GET', '/api/app-logs/:appId', (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    requireAdmin(caller);
    const params = request.url.searchParams;
    const limit = parseCount(params.get('limit'), 'limit', 100, 10_000);
    const skip = parseCount(params.get('skip'), 'skip', 0, Number.MAX_SAFE_INTEGER);
    const newestFirst = selectVisits(context.store.pageVisits(app.id), params).reverse();
    return jsonReply(200, newestFirst.slice(skip, skip + limit));
  });

  router.add('GET', '/api/app-logs/:appId/stats', (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    requireAdmin(caller);
    const visits = selectVisits(context.store.pageVisits(app.id), request.url.searchParams);
    const pages = new Map<string, { visits: number; users: Set<string> }>();
    for (const visit of visits) {
      const entry = pages.get(visit.page_name) ?? { visits: 0, users: new Set<string>() };
      entry.visits += 1;
      entry.users.add(visit.user_id);
      pages.set(visit.page_name, entry);
    }
    return jsonReply(200, {
      total_visits: visits.length,
      unique_users: new Set(visits.map((visit) => visit.user_id)).size,
      pages: [...pages.entries()]
        .map(([page_name, entry]) => ({ page_name, visits: entry.visits, unique_users: entry.users.size }))
        .sort((left, right) => right.visits - left.visits || left.page_name.localeCompare(right.page_name)),
      first_visit: visits[0]?.created_date ?? null,
      last_visit: visits[visits.length - 1]?.created_date ?? null,
    });
  });
}
