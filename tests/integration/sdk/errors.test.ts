/**
 * docs/SPEC.md section 8 error paths over real HTTP: network failure, timeout, HTTP errors with and without
 * message/detail, abort, and the argument errors raised before any request.
 */
import { createClient } from '@/lib/sdk/client/create-client';
import { SERVICE_TOKEN_REQUIRED_MESSAGE } from '@/lib/sdk/client/service-role';
import { ErrorCodes, isPlatformError, type PlatformError } from '@/lib/sdk/core/errors';
import { SEEDED_ACCOUNTS, SEEDED_APPS } from '@/tests/support/emulator';

import { clientFor, closedPort, rejectionOf, startEmulatorForSuite, type TestEntities } from './harness';
import { startRecordingServer, type RecordingServer } from './recording-server';

const platform = startEmulatorForSuite();
let stub: RecordingServer;
beforeAll(async () => {
  stub = await startRecordingServer();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

async function platformError(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await rejectionOf(promise);
  if (!isPlatformError(error)) throw new Error(`Expected a PlatformError, got ${String(error)}`);
  return error;
}

const stubClient = (options: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient<TestEntities>({ serverUrl: stub.url, appId: 'app-1', token: null, ...options });

describe('network failure', () => {
  it('a closed port rejects with "Network failure", no status, the low-level cause, and reaches onError', async () => {
    const seen: PlatformError[] = [];
    const client = createClient<TestEntities>({
      serverUrl: `http://127.0.0.1:${await closedPort()}`,
      appId: 'x',
      token: null,
      onError: (e) => seen.push(e),
    });
    const error = await platformError(client.entities.Todo.list());
    expect(error.message).toBe('Network failure');
    expect(error.code).toBe(ErrorCodes.network);
    expect(error.status).toBeUndefined();
    // Node's fetch failure (a TypeError from another realm than Jest's, hence no instanceof).
    expect(error.cause).toMatchObject({ name: 'TypeError' });
    expect(seen).toEqual([error]);
  });
});

describe('timeouts', () => {
  beforeEach(() => stub.respond(() => 'hang'));

  it('a server that never answers fails after the per-call timeout with the spec message', async () => {
    const started = Date.now();
    const error = await platformError(
      stubClient().entities.Todo.list(undefined, undefined, undefined, undefined, { timeout: 150 }),
    );
    expect(error.message).toBe('timeout of 150 ms exceeded');
    expect(error.code).toBe(ErrorCodes.timeout);
    expect(error.status).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a client-wide timeout applies to calls without their own, and a per-call one overrides it', async () => {
    const client = stubClient({ timeout: 100 });
    expect((await platformError(client.publicSettings.get())).message).toBe('timeout of 100 ms exceeded');
    expect((await platformError(client.publicSettings.get({ timeout: 120 }))).message).toBe(
      'timeout of 120 ms exceeded',
    );
  });

  it('has no default timeout: an unanswered call stays pending until the caller aborts it', async () => {
    const controller = new AbortController();
    let settled = false;
    const call = stubClient().auth.me({ signal: controller.signal });
    void call.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(settled).toBe(false);
    controller.abort();
    expect((await platformError(call)).code).toBe(ErrorCodes.aborted);
  });

  it('refuses a timeout that is not a positive number before sending anything', async () => {
    for (const timeout of [0, -5, Number.NaN, Infinity]) {
      const error = await platformError(stubClient().auth.me({ timeout }));
      expect(error.code).toBe(ErrorCodes.invalidArgument);
    }
    expect(stub.requests).toHaveLength(0);
  });
});

describe('abort', () => {
  it('aborting in flight rejects with code ABORTED, keeps the DOMException as cause, and skips onError', async () => {
    stub.respond(() => 'hang');
    const seen: PlatformError[] = [];
    const controller = new AbortController();
    const call = stubClient({ onError: (e) => seen.push(e) }).entities.Todo.create(
      { title: 'x' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    const error = await platformError(call);
    expect(error.code).toBe(ErrorCodes.aborted);
    expect(error.cause).toBeInstanceOf(DOMException);
    expect((error.cause as DOMException).name).toBe('AbortError');
    expect(seen).toHaveLength(0);
  });

  it('an already-aborted signal fails at once with the caller reason and sends nothing', async () => {
    const reason = new Error('navigated away');
    const error = await platformError(stubClient().auth.me({ signal: AbortSignal.abort(reason) }));
    expect(error.code).toBe(ErrorCodes.aborted);
    expect(error.cause).toBe(reason);
    expect(stub.requests).toHaveLength(0);
  });

  it('an abort wins over a pending timeout', async () => {
    stub.respond(() => 'hang');
    const controller = new AbortController();
    const call = stubClient().auth.me({ signal: controller.signal, timeout: 5000 });
    setTimeout(() => controller.abort(), 30);
    expect((await platformError(call)).code).toBe(ErrorCodes.aborted);
  });
});

describe('HTTP error bodies (stub server)', () => {
  it.each([
    [
      'message and detail: message wins',
      500,
      { message: 'Database is down', detail: 'pool exhausted', code: 'db_down' },
      'Database is down',
      'db_down',
    ],
    ['detail only', 502, { detail: 'Upstream timed out' }, 'Upstream timed out', undefined],
    ['neither: the transport text', 503, { code: 'maintenance' }, 'Request failed with status code 503', 'maintenance'],
    [
      'a 4xx without message or detail',
      418,
      { extra_data: { reason: 'teapot' } },
      'Request failed with status code 418',
      undefined,
    ],
    ['a text body', 500, 'Internal Server Error', 'Request failed with status code 500', undefined],
    ['no body at all', 500, undefined, 'Request failed with status code 500', undefined],
  ])('%s', async (_label, status, body, message, code) => {
    stub.respond(() => ({ status, body }));
    const error = await platformError(stubClient().entities.Todo.list());
    expect(error.message).toBe(message);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    if (body !== undefined) expect(error.data).toEqual(body);
    expect(error.toJSON()).toEqual({ name: 'Base44Error', message, status, code, data: error.data });
  });

  it('never retries on its own: one failed GET is one request', async () => {
    stub.respond(() => ({ status: 503, body: { message: 'busy' } }));
    await platformError(stubClient().entities.Todo.list());
    await platformError(stubClient().entities.Todo.get('x'));
    expect(stub.requests).toHaveLength(2);
  });

  it('a throwing onError handler does not replace the error the caller receives', async () => {
    stub.respond(() => ({ status: 500, body: { message: 'boom' } }));
    const client = stubClient({
      onError: () => {
        throw new Error('handler bug');
      },
    });
    expect((await platformError(client.auth.me())).message).toBe('boom');
  });
});

describe('HTTP errors from the emulator', () => {
  it('a missing record: 404 with the server message and code', async () => {
    const client = clientFor(platform, { serviceToken: 'service-token-coming-soon' });
    const error = await platformError(client.asServiceRole.entities.Todo.get('does-not-exist'));
    expect(error.status).toBe(404);
    expect(error.code).toBe('record_not_found');
    expect(error.message).toBe('Todo does-not-exist not found');
  });

  it('a protected app without a token: 403 carrying extra_data.reason', async () => {
    const client = clientFor(platform, { appId: SEEDED_APPS.loginRequired });
    const error = await platformError(client.publicSettings.get());
    expect(error.status).toBe(403);
    expect(error.message).toBe('Authentication required');
    expect(error.data).toMatchObject({ extra_data: { reason: 'auth_required' } });
  });

  it('a dead token: 401 on User/me', async () => {
    const error = await platformError(clientFor(platform, { token: 'not-a-real-token' }).auth.me());
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_token');
  });

  it('a wrong password: 401 with the server message', async () => {
    const error = await platformError(clientFor(platform).auth.login(SEEDED_ACCOUNTS.user.email, 'wrong'));
    expect([error.status, error.message]).toEqual([401, 'Invalid email or password']);
  });
});

describe('argument errors before any request', () => {
  it.each([
    ['a string', 'hello', 'hello'],
    ['a number', 42, '42'],
    ['an array', ['a', 1], '["a",1]'],
    ['null', null, 'null'],
  ])('integrations and functions refuse %s with the spec message', async (_label, value, shown) => {
    const client = stubClient();
    const integration = await platformError(
      (client.integrations.Core.SendEmail as (params: unknown) => Promise<unknown>)(value),
    );
    expect(integration.message).toBe(
      `Integration SendEmail must receive an object with named parameters, received: ${shown}`,
    );
    const fn = await platformError(client.functions.invoke('hello', value as unknown as Record<string, unknown>));
    expect(fn.message).toBe(`Function hello must receive an object with named parameters, received: ${shown}`);
    expect(stub.requests).toHaveLength(0);
  });

  it('asServiceRole without a service token throws the spec message', () => {
    const client = stubClient();
    expect(() => client.asServiceRole).toThrow(SERVICE_TOKEN_REQUIRED_MESSAGE);
    try {
      void client.asServiceRole;
    } catch (error) {
      expect(isPlatformError(error) && error.code).toBe(ErrorCodes.serviceTokenRequired);
    }
  });

  it.each([
    ['an empty id', (c: ReturnType<typeof stubClient>) => c.entities.Todo.get('')],
    ['a dot-dot id', (c: ReturnType<typeof stubClient>) => c.entities.Todo.update('..', {})],
    ['a dot id', (c: ReturnType<typeof stubClient>) => c.entities.Todo.delete('.')],
    ['a non-object filter', (c: ReturnType<typeof stubClient>) => c.entities.Todo.filter('x' as never)],
    [
      'deleteMany without a filter',
      (c: ReturnType<typeof stubClient>) => c.entities.Todo.deleteMany(undefined as never),
    ],
    ['bulkCreate without a list', (c: ReturnType<typeof stubClient>) => c.entities.Todo.bulkCreate({} as never)],
    [
      'an import that is not a file',
      (c: ReturnType<typeof stubClient>) => c.entities.Todo.importEntities('x' as never),
    ],
    ['a login without password', (c: ReturnType<typeof stubClient>) => c.auth.login('a@b.c', '')],
    ['an empty function name', (c: ReturnType<typeof stubClient>) => c.functions.invoke('', {})],
    ['an empty page name', (c: ReturnType<typeof stubClient>) => c.appLogs.logUserInApp('')],
    ['a dot-dot conversation id', (c: ReturnType<typeof stubClient>) => c.agents.getConversation('..')],
  ])('rejects %s with INVALID_ARGUMENT and sends nothing', async (_label, call) => {
    const error = await platformError(call(stubClient()));
    expect(error.code).toBe(ErrorCodes.invalidArgument);
    expect(stub.requests).toHaveLength(0);
  });

  const cyclic = (): Record<string, unknown> => {
    const value: Record<string, unknown> = { title: 'loop' };
    value.self = value;
    return value;
  };
  it.each([
    ['a body with a cycle', (c: ReturnType<typeof stubClient>) => c.entities.Todo.create(cyclic() as never)],
    ['a body with a BigInt', (c: ReturnType<typeof stubClient>) => c.functions.invoke('sum', { n: BigInt(1) })],
    ['a filter with a BigInt', (c: ReturnType<typeof stubClient>) => c.entities.Todo.filter({ n: BigInt(1) } as never)],
    [
      'a cursor-page filter with a cycle',
      (c: ReturnType<typeof stubClient>) => c.entities.Todo.filter(cyclic() as never, { limit: 5 } as never),
    ],
    ['a count filter with a cycle', (c: ReturnType<typeof stubClient>) => c.entities.Todo.count(cyclic() as never)],
    [
      'a conversation filter with a BigInt',
      (c: ReturnType<typeof stubClient>) => c.agents.listConversations({ q: { n: BigInt(1) } }),
    ],
    [
      'a multipart field with a cycle',
      (c: ReturnType<typeof stubClient>) =>
        c.integrations.Core.UploadFile({ file: new Blob(['x']), meta: cyclic() } as never),
    ],
  ])(
    'rejects %s that cannot be encoded with INVALID_ARGUMENT (never a raw TypeError), sending nothing',
    async (_label, call) => {
      const error = await platformError(call(stubClient()));
      expect(error.code).toBe(ErrorCodes.invalidArgument);
      expect(error.message).toMatch(/cannot be sent as JSON/);
      expect(error.cause).toBeInstanceOf(TypeError);
      expect(stub.requests).toHaveLength(0);
    },
  );

  it('createClient refuses unusable settings', () => {
    expect(() => createClient<TestEntities>({ serverUrl: 'javascript:alert(1)', appId: 'a' })).toThrow(/serverUrl/);
    expect(() => createClient<TestEntities>({ serverUrl: 'https://u:p@platform.example', appId: 'a' })).toThrow(
      /serverUrl/,
    );
    expect(() => createClient<TestEntities>({ serverUrl: 'https://platform.example', appId: '' })).toThrow(/appId/);
    expect(() =>
      createClient<TestEntities>({ serverUrl: 'https://platform.example', appId: 'a', appBaseUrl: '//evil.example' }),
    ).toThrow(/appBaseUrl/);
  });
});
