/**
 * docs/DEPLOY.md carries the host table exactly as support/hosts/host-table.ts renders it, so each
 * of its rows is what the host matrix checks (tests/hosts/host-table.spec.ts) and nothing else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { CHECKS, HOST_CHECK_IDS } from '@/deploy/host-check/catalog';
import { DEPLOY_TARGETS, PROTECTION_ROWS, renderHostTable, TARGET_ORDER } from '@/support/hosts/host-table';

const DEPLOY_DOC = readFileSync(path.resolve(__dirname, '../../../docs/DEPLOY.md'), 'utf8');

it('docs/DEPLOY.md shows the host table the host matrix checks, row for row', () => {
  const table = renderHostTable();
  expect(DEPLOY_DOC).toContain(`\n${table}\n`);
  // One row per check of `npm run check:host` that judges the host, one column per host the doc names.
  expect(Object.keys(PROTECTION_ROWS)).toEqual(HOST_CHECK_IDS);
  for (const id of HOST_CHECK_IDS) {
    expect(table).toContain(`\n| ${CHECKS[id].label} | `);
    expect(Object.keys(PROTECTION_ROWS[id]).sort()).toEqual([...TARGET_ORDER].sort());
  }
  expect(table.split('\n')[0]).toBe(`| | ${TARGET_ORDER.map((target) => DEPLOY_TARGETS[target].title).join(' | ')} |`);
});

it('a cell says kept exactly when the table marks it so', () => {
  for (const row of Object.values(PROTECTION_ROWS)) {
    for (const cell of Object.values(row)) {
      if (cell.text.startsWith('✓')) expect(cell.kept).toBe(true);
      if (cell.text.startsWith('✗')) expect(cell.kept).toBe(false);
    }
  }
});
