import type { RunningEmulator } from '@/emulator/core/types';
import { startTestEmulator } from '@/tests/support/emulator';

import { runSdkScenario, stepValue, type StepResult } from './fixtures/run-sdk-scenario';

/**
 * The unmodified public @base44/sdk, pointed at the emulator: CRUD with filters, login + auth.me(),
 * a function call, integrations, an entity subscription that receives a create event, and agents.
 * The SDK is native ESM, which Jest's CommonJS runtime cannot load, so fixtures/sdk-scenario.ts runs
 * it in a real Node process (with tsx) and reports each step; this test asserts on the report.
 */

jest.setTimeout(60_000);

let emulator: RunningEmulator;
let results: Record<string, StepResult>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  results = await runSdkScenario('sdk-scenario.ts', emulator.url);
});
afterAll(() => emulator.close());

const value = <T>(step: string): T => stepValue<T>(results, step);

type Row = Record<string, unknown>;

it('reads public settings', () => {
  expect(value('publicSettings')).toMatchObject({ id: 'coming-soon', public_settings: { requires_auth: false } });
});

it('logs in and reads the user with auth.me()', () => {
  expect(value('login')).toMatchObject({ hasToken: true, user: { email: 'user@example.com' } });
  expect(value('me')).toMatchObject({ id: 'user-user', email: 'user@example.com', role: 'user' });
});

it("surfaces a wrong password as the SDK's error with status, code and message", () => {
  expect(results.wrongPassword).toMatchObject({
    ok: false,
    status: 401,
    code: 'invalid_credentials',
    message: 'Invalid email or password',
  });
});

it('runs entity CRUD with filters, sort, limit, skip and fields', () => {
  const crud = value<Record<string, Row | Row[]>>('crud');
  expect(crud.first).toMatchObject({ title: 'first', created_by: 'user@example.com' });
  expect((crud.open as Row[]).map((row) => row.title)).toEqual(['first', 'third']);
  expect((crud.byRegex as Row[]).map((row) => row.title)).toEqual(['third']);
  expect(crud.page).toEqual([{ id: expect.any(String), title: 'second' }]);
  expect(crud.updated).toMatchObject({ title: 'first', done: true });
  expect(crud.fetched).toEqual(crud.updated);
  expect(crud.deletedMany).toMatchObject({ deleted: 1 });
  expect((crud.remaining as Row[]).map((row) => row.title)).toEqual(['second']);
  expect(results.missingRecord).toMatchObject({ ok: false, status: 404, code: 'record_not_found' });
});

it("invokes a function with the caller's user", () => {
  expect(value('function')).toMatchObject({ message: 'Hello, SDK!', user: { email: 'user@example.com' } });
});

it('sends e-mail, uploads files and reports unavailable integrations', () => {
  value('sendEmail');
  expect(emulator.outbox()).toEqual(
    expect.arrayContaining([expect.objectContaining({ to: 'sdk@example.com', subject: 'From the SDK' })]),
  );
  expect(value('uploadFile')).toMatchObject({ content: 'sdk bytes' });
  expect(results.notLocal).toMatchObject({ ok: false, status: 501, code: 'not_available_locally' });
  value('logVisit');
});

it('receives a create event through an entity subscription', () => {
  const { created, event } = value<{ created: Row; event: Row }>('subscription');
  expect(event).toMatchObject({ type: 'create', id: created.id, data: created });
});

it("follows an agent conversation to the emulator's reply", () => {
  const agents = value<{ final: { messages: Row[] }; listedCount: number; whatsapp: string }>('agents');
  expect(agents.final.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(agents.listedCount).toBe(1);
  expect(agents.whatsapp).toBe(`${emulator.url}/api/apps/coming-soon/agents/sdk-agent/whatsapp`);
});

it('reads users with the service role', () => {
  expect(
    value<Row[]>('serviceRole')
      .map((user) => user.email)
      .sort(),
  ).toEqual(['admin@example.com', 'user@example.com']);
});
