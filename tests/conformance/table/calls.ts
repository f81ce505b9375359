/** Integrations, functions, logs, users, connectors, sso, the AI gateway and the client's own helpers. */
import { answerByPath, answerWith, argumentErrorCode, copy, rows, textFile } from './helpers';

/** A raw functions.invoke response reduced to what both clients return alike. */
const statusAndData = (value: unknown) => {
  const { status, data } = value as { status: number; data: unknown };
  return { status, data };
};

/** A fetch Response reduced to status and text. */
const responseSummary = async (response: Response) => ({ status: response.status, text: await response.text() });

export const callRows = rows(
  {
    name: 'integrations: Core endpoint with JSON',
    covers: ['integrations.*.*'],
    config: { token: 'user-token' },
    answer: answerWith({ response: 'Hallo' }),
    run: (client) =>
      client.integrations.Core.InvokeLLM({ prompt: 'Sag „Hallo“', response_json_schema: { type: 'object' } }),
  },
  {
    name: 'integrations: Core UploadFile sends multipart with the file name and type',
    covers: ['integrations.*.*'],
    answer: answerWith({ file_url: 'https://files.example/a.txt' }),
    run: (client) =>
      client.integrations.Core.UploadFile({ file: textFile('bericht ä.txt', 'Inhalt'), meta: { a: 1 }, n: 2 } as {
        file: File;
      }),
  },
  {
    name: 'integrations: installable package uses the current route',
    covers: ['integrations.*.*'],
    answer: answerWith({ sent: true }),
    run: async (client) => client.integrations.Slack?.PostMessage?.({ channel: '#general', text: 'Hi' }),
  },
  {
    name: 'integrations: a string argument is refused before sending',
    covers: ['integrations.*.*'],
    run: (client) => (client.integrations.Core.SendEmail as unknown as (value: string) => Promise<unknown>)('hello'),
    deviation: argumentErrorCode,
  },
  {
    name: 'integrations: custom.call renames path and query parameters',
    covers: ['integrations.custom.call'],
    answer: answerWith({ success: true, status_code: 200, data: { id: 7 } }),
    run: (client) =>
      client.integrations.custom.call('github', 'get_repo', {
        payload: { a: 1 },
        pathParams: { owner: 'acme', repo: 'site' },
        queryParams: { page: 2 },
      }),
  },
  {
    name: 'integrations: custom.call refuses an empty slug',
    covers: ['integrations.custom.call'],
    run: (client) => client.integrations.custom.call(' ', 'op'),
    deviation: argumentErrorCode,
  },
  {
    name: 'service role: integrations and custom integrations',
    covers: ['asServiceRole.integrations.*.*', 'asServiceRole.integrations.custom.call'],
    config: { serviceToken: 'svc-token', token: 'user-token' },
    async run(client) {
      return [
        await client.asServiceRole.integrations.Core.SendEmail({ to: 'a@example.com', subject: 'S', body: 'B' }),
        await client.asServiceRole.integrations.custom.call('crm', 'list'),
      ];
    },
  },
  {
    name: 'functions: invoke with JSON and a functions version',
    covers: ['functions.invoke'],
    config: { token: 'user-token', functionsVersion: 'draft' },
    answer: answerWith({ total: 3 }),
    run: (client) => client.functions.invoke('sumOrders', { year: 2025, tags: ['a'] }),
    project: statusAndData,
  },
  {
    name: 'functions: invoke with a file sends multipart',
    covers: ['functions.invoke'],
    answer: answerWith({ ok: 1 }),
    run: (client) =>
      client.functions.invoke('ingest', { file: textFile('daten.csv', 'a,b', 'text/csv'), mode: 'fast' }),
    project: statusAndData,
  },
  {
    name: 'functions: a failing function rejects with its error',
    covers: ['functions.invoke'],
    answer: answerWith({ error: { message: 'Boom', code: 'FUNCTION_FAILED' } }, 500),
    run: (client) => client.functions.invoke('broken', {}),
    deviation: {
      id: 'function-errors-are-platform-errors',
      adjust(reference) {
        const adjusted = copy(reference);
        const data = { error: { message: 'Boom', code: 'FUNCTION_FAILED' } };
        adjusted.outcome = {
          error: { name: 'Base44Error', message: 'Boom', status: 500, code: 'FUNCTION_FAILED', data },
        };
        return adjusted;
      },
    },
  },
  {
    name: 'functions: fetch reaches the function route with the token',
    covers: ['functions.fetch'],
    config: { token: 'user-token' },
    answer: () => ({ status: 201, body: 'created' }),
    run: async (client) =>
      responseSummary(
        await client.functions.fetch('hooks/incoming', { method: 'POST', body: 'x=1', headers: { 'X-Trace': 't' } }),
      ),
  },
  {
    name: 'service role: functions',
    covers: ['asServiceRole.functions.invoke', 'asServiceRole.functions.fetch'],
    config: { serviceToken: 'svc-token', token: 'user-token', functionsVersion: 'v2' },
    async run(client) {
      return [
        statusAndData(await client.asServiceRole.functions.invoke('job', { a: 1 })),
        await responseSummary(await client.asServiceRole.functions.fetch('/status')),
      ];
    },
    deviation: {
      id: 'service-functions-on-behalf-of',
      adjust(reference) {
        const adjusted = copy(reference);
        const invoke = adjusted.requests[0];
        if (invoke) invoke.headers['on-behalf-of'] = 'Bearer user-token';
        return adjusted;
      },
    },
  },
  {
    name: 'appLogs and app',
    covers: ['appLogs.logUserInApp', 'appLogs.fetchLogs', 'appLogs.getStats', 'app.getPublicSettings'],
    answer: answerWith({ id: 'app-1', public_settings: 'public_without_login' }),
    async run(client) {
      return [
        await client.appLogs.logUserInApp('Start'),
        await client.appLogs.fetchLogs({ limit: 5, page: 'Start' }),
        await client.appLogs.getStats({ from: '2026-01-01' }),
        await client.app.getPublicSettings(),
      ];
    },
  },
  {
    name: 'service role: appLogs',
    covers: ['asServiceRole.appLogs.logUserInApp', 'asServiceRole.appLogs.fetchLogs', 'asServiceRole.appLogs.getStats'],
    config: { serviceToken: 'svc-token' },
    async run(client) {
      const logs = client.asServiceRole.appLogs;
      return [await logs.logUserInApp('Start'), await logs.fetchLogs(), await logs.getStats()];
    },
  },
  {
    name: 'users: inviteUser',
    covers: ['users.inviteUser'],
    config: { token: 'user-token' },
    run: (client) => client.users.inviteUser('neu@example.com', 'user'),
  },
  {
    name: 'users: inviteUser refuses an unknown role',
    covers: ['users.inviteUser'],
    run: (client) => client.users.inviteUser('neu@example.com', 'owner' as 'user'),
    deviation: argumentErrorCode,
  },
  {
    name: 'connectors: the app user connects and disconnects',
    covers: ['connectors.connectAppUser', 'connectors.disconnectAppUser'],
    config: { token: 'user-token' },
    answer: answerWith({ redirect_url: 'https://accounts.example/consent' }),
    async run(client) {
      return [
        await client.connectors.connectAppUser('google-drive'),
        await client.connectors.disconnectAppUser('google-drive'),
      ];
    },
  },
  {
    name: 'service role: connectors',
    covers: [
      'asServiceRole.connectors.getAccessToken',
      'asServiceRole.connectors.getConnection',
      'asServiceRole.connectors.getWorkspaceConnection',
      'asServiceRole.connectors.getCurrentAppUserAccessToken',
      'asServiceRole.connectors.getCurrentAppUserConnection',
    ],
    config: { serviceToken: 'svc-token', token: 'user-token' },
    answer: answerWith({ access_token: 'oauth-1', integration_type: 'slack', connection_config: { team: 'T1' } }),
    async run(client) {
      const connectors = client.asServiceRole.connectors;
      return [
        await connectors.getAccessToken('slack'),
        await connectors.getConnection('slack'),
        await connectors.getWorkspaceConnection('conn 1'),
        await connectors.getCurrentAppUserAccessToken('conn-2'),
        await connectors.getCurrentAppUserConnection('conn-2'),
      ];
    },
  },
  {
    name: 'service role: connectors.callApi',
    covers: ['asServiceRole.connectors.callApi'],
    config: { serviceToken: 'svc-token' },
    answer: answerWith({
      success: false,
      phase: 'responded',
      status_code: 404,
      data: { e: 1 },
      headers: { a: 'b' },
      credits_charged: 1,
    }),
    run: (client) =>
      client.asServiceRole.connectors.callApi('slack', {
        method: 'POST',
        path: '/chat.postMessage',
        body: { text: 'Hi' },
        host: null as unknown as string,
      }),
  },
  {
    name: 'service role: connectors.callApi refuses a bad method',
    covers: ['asServiceRole.connectors.callApi'],
    config: { serviceToken: 'svc-token' },
    run: (client) => client.asServiceRole.connectors.callApi('slack', { method: 'TRACE' as 'GET', path: '/x' }),
    deviation: argumentErrorCode,
  },
  {
    name: 'service role: sso',
    covers: ['asServiceRole.sso.getAccessToken', 'asServiceRole.sso.getIdToken'],
    config: { serviceToken: 'svc-token' },
    answer: answerByPath([
      ['/accesstoken/u1', { status: 200, body: { access_token: 'sso-1' } }],
      ['/idtoken/u1', { status: 200, body: 'id-token-text' }],
    ]),
    async run(client) {
      return [await client.asServiceRole.sso.getAccessToken('u1'), await client.asServiceRole.sso.getIdToken('u1')];
    },
  },
  {
    name: 'aiGateway: connection details',
    covers: ['aiGateway.connection', 'asServiceRole.aiGateway.connection'],
    config: { token: 'user-token', serviceToken: 'svc-token' },
    run: async (client) => [
      client.aiGateway.connection(),
      client.aiGateway.connection({ provider: 'typesafe' }),
      client.asServiceRole.aiGateway.connection(),
    ],
  },
  {
    name: 'fetchWithAuth passes the credentials createClientFromRequest reads',
    covers: ['fetchWithAuth'],
    config: {
      token: 'user-token',
      serviceToken: 'svc-token',
      functionsVersion: 'draft',
      headers: { 'Base44-State': 's1', 'X-Data-Env': 'dev' },
    },
    async run(client) {
      const seen: Record<string, string>[] = [];
      const recorder = async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ url: String(input), ...Object.fromEntries(new Headers(init?.headers).entries()) });
        return new Response('ok');
      };
      await client.fetchWithAuth('/api/orders?x=1', { fetch: recorder, headers: { 'X-Extra': '1' } });
      const refused = await client
        .fetchWithAuth('//evil.example/x', { fetch: recorder })
        .catch((error: Error) => error.message);
      return { seen, refused };
    },
  },
  {
    name: 'cleanup closes sockets; analytics is a no-op when disabled',
    covers: ['cleanup', 'asServiceRole.cleanup', 'analytics.track', 'analytics.cleanup'],
    config: { serviceToken: 'svc-token' },
    async run(client) {
      client.analytics.track({ eventName: 'clicked', properties: { a: 1 } });
      client.analytics.cleanup();
      client.asServiceRole.cleanup();
      client.cleanup();
      return 'clean';
    },
  },
);
