/**
 * docs/DEPLOY.md's host table (support/hosts/host-table.ts), cell by cell, on the host that stands
 * for each column: check:host's verdict for every protection row, the raw answer for every path row.
 * Our model must answer every row exactly as Cloudflare Pages does. Netlify's header cells are checked
 * by tests/integration/deploy/netlify-host-table.test.ts (no runnable Netlify here).
 */
import { checkHost, HOST_CHECK_IDS } from '../../deploy/host-check/checks';
import {
  DEPLOY_TARGETS,
  ITS_OWN_PAGE,
  PATH_ROWS,
  PROTECTION_ROWS,
  TARGET_ORDER,
  type PathAnswer,
} from '../../support/hosts/host-table';
import { matrixUrls, type MatrixHostId } from '../../support/hosts/matrix';
import { expect, test } from '../e2e/fixtures';
import { exportFileOf, rawGet } from './raw-request';

/** The raw answer as a row cell: a redirect's Location as a path on the same origin, a body as its file. */
async function answerOf(site: string, target: string): Promise<PathAnswer | { status: number; other: string }> {
  const answer = await rawGet(site, target);
  if (answer.status === 308) {
    const location = new URL(answer.headers.location ?? '', `${site}/`);
    return {
      status: 308,
      location: location.origin === site ? `${location.pathname}${location.search}` : location.href,
    };
  }
  if ([200, 400, 404, 500].includes(answer.status)) {
    const file = exportFileOf(answer.body);
    return { status: answer.status as 200, file: file.startsWith('(') ? ITS_OWN_PAGE : file };
  }
  return { status: answer.status, other: answer.body.slice(0, 80) };
}

/** Each runnable column, and the model for Cloudflare's. */
const COLUMNS = TARGET_ORDER.flatMap((target) => {
  const host = DEPLOY_TARGETS[target].host;
  if (!host) return [];
  const hosts: MatrixHostId[] = target === 'cloudflare' ? ['cloudflare', 'model'] : [host];
  return hosts.map((id) => ({ target, id }));
});

for (const { target, id } of COLUMNS) {
  test.describe(`${DEPLOY_TARGETS[target].title} column, on the ${id} host`, () => {
    const { site } = matrixUrls(id);

    test('check:host finds what each protection row says', async () => {
      const report = await checkHost(`${site}/`);
      const verdicts = Object.fromEntries(
        report.results.filter((result) => result.scope === 'host').map((result) => [result.id, result.kept]),
      );
      const expected = Object.fromEntries(HOST_CHECK_IDS.map((check) => [check, PROTECTION_ROWS[check][target].kept]));
      expect(verdicts).toEqual(expected);
    });

    test('each page address is answered as the path rows say', async () => {
      for (const row of PATH_ROWS) {
        expect(await answerOf(site, row.request), row.request).toEqual(row.answers[target]);
      }
    });
  });
}
