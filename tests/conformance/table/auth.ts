/** Sign-in, the current user, tokens (Node side; the browser-only calls are in browser.ts). */
import { errorShape, type ErrorShape } from '../observe';
import { answerByPath, answerWith, argumentError, copy, rows } from './helpers';

const reported: ErrorShape[] = [];

const USER = { id: 'u1', email: 'user@example.com', full_name: 'Jörg Ä', role: 'user' };

export const authRows = rows(
  {
    name: 'auth: me',
    covers: ['auth.me'],
    config: { token: 'user-token' },
    answer: answerWith(USER),
    run: (client) => client.auth.me(),
  },
  {
    name: 'auth: concurrent me() calls share one request',
    covers: ['auth.me'],
    config: { token: 'user-token' },
    answer: answerWith(USER),
    run: (client) => Promise.all([client.auth.me(), client.auth.me()]),
  },
  {
    name: 'auth: updateMe',
    covers: ['auth.updateMe'],
    config: { token: 'user-token' },
    answer: answerWith({ ...USER, full_name: 'Neu' }),
    run: (client) => client.auth.updateMe({ full_name: 'Neu' }),
  },
  {
    name: 'auth: loginViaEmailPassword stores the token and uses it',
    covers: ['auth.loginViaEmailPassword', 'auth.hasToken'],
    answer: answerByPath([
      ['/auth/login', { status: 200, body: { access_token: 'fresh', user: USER } }],
      ['/User/me', { status: 200, body: USER }],
    ]),
    async run(client) {
      const before = client.auth.hasToken();
      const login = await client.auth.loginViaEmailPassword('user@example.com', 'pässwörd', 'turnstile-1');
      return { before, login, after: client.auth.hasToken(), me: await client.auth.me() };
    },
  },
  {
    name: 'auth: a wrong password (401) signs the client out',
    covers: ['auth.loginViaEmailPassword'],
    config: { token: 'old-token' },
    answer: answerByPath([['/auth/login', { status: 401, body: { message: 'Invalid email or password' } }]]),
    async run(client) {
      const failure = await client.auth
        .loginViaEmailPassword('user@example.com', 'wrong')
        .catch((error: Error) => error.message);
      return { failure, hasToken: client.auth.hasToken() };
    },
    deviation: {
      // The request carried the old token and was refused; the reference means to sign out here too,
      // but its check (error.response.status) never matches its own error type, so it keeps the token.
      id: 'drop-rejected-token',
      adjust(reference) {
        const adjusted = copy(reference);
        adjusted.outcome = { result: { failure: 'Invalid email or password', hasToken: false } };
        return adjusted;
      },
    },
  },
  {
    name: 'auth: register, OTP and password calls',
    covers: [
      'auth.register',
      'auth.verifyOtp',
      'auth.resendOtp',
      'auth.resetPasswordRequest',
      'auth.resetPassword',
      'auth.changePassword',
    ],
    config: { token: 'user-token' },
    async run(client) {
      return [
        await client.auth.register({ email: 'neu@example.com', password: 'geheim', referral_code: 'R1' }),
        await client.auth.verifyOtp({ email: 'neu@example.com', otpCode: '123456' }),
        await client.auth.resendOtp('neu@example.com'),
        await client.auth.resetPasswordRequest('neu@example.com'),
        await client.auth.resetPassword({ resetToken: 'r-1', newPassword: 'neu' }),
        await client.auth.changePassword({ userId: 'u1', currentPassword: 'alt', newPassword: 'neu' }),
      ];
    },
  },
  {
    name: 'auth: inviteUser',
    covers: ['auth.inviteUser'],
    config: { token: 'user-token' },
    run: (client) => client.auth.inviteUser('neu@example.com', 'admin'),
  },
  {
    name: 'auth: setToken applies to the next request; client.setToken too',
    covers: ['auth.setToken', 'setToken'],
    async run(client) {
      client.auth.setToken('first');
      await client.auth.me();
      client.setToken('second');
      return client.auth.me();
    },
  },
  {
    name: "auth: setToken('') is ignored: the client keeps its token",
    covers: ['auth.setToken', 'setToken'],
    config: { token: 'user-token' },
    answer: answerWith(USER),
    async run(client) {
      client.auth.setToken('');
      client.setToken('');
      return { user: await client.auth.me(), hasToken: client.auth.hasToken() };
    },
  },
  {
    name: 'auth: isAuthenticated with a valid token',
    covers: ['auth.isAuthenticated'],
    config: { token: 'user-token' },
    answer: answerWith(USER),
    run: (client) => client.auth.isAuthenticated(),
  },
  {
    name: 'auth: isAuthenticated asks the server even without a token (a platform session counts)',
    covers: ['auth.isAuthenticated'],
    answer: answerWith({ message: 'Not signed in' }, 401),
    run: (client) => client.auth.isAuthenticated(),
  },
  {
    name: 'auth: isAuthenticated during an outage',
    covers: ['auth.isAuthenticated'],
    config: { token: 'user-token' },
    answer: answerWith({ message: 'Service unavailable' }, 503),
    run: (client) => client.auth.isAuthenticated(),
  },
  {
    name: 'options.onError hears every failed request',
    covers: ['entities.*.get'],
    config: { options: { onError: (error) => reported.push(errorShape(error)) } },
    answer: answerWith({ error: { message: 'Gone', code: 'GONE' } }, 410),
    async run(client) {
      reported.length = 0;
      await client.entities.Todo?.get('r1').catch(() => undefined);
      return [...reported];
    },
  },
  {
    name: 'auth: logout outside a browser forgets the token',
    covers: ['auth.logout'],
    config: { token: 'user-token' },
    async run(client) {
      client.auth.logout();
      await client.auth.me();
      return client.auth.hasToken();
    },
  },
  {
    name: 'auth: redirectToLogin outside a browser throws',
    covers: ['auth.redirectToLogin'],
    async run(client) {
      client.auth.redirectToLogin('/x');
      return 'navigated';
    },
    deviation: argumentError('BROWSER_REQUIRED'),
  },
  {
    name: 'auth: a 401 to a request with the user token drops the token at once',
    covers: ['auth.me', 'entities.*.list'],
    config: { token: 'dead-token' },
    answer: (request) =>
      request.headers.authorization ? { status: 401, body: { message: 'Token expired' } } : { status: 200, body: [] },
    async run(client) {
      const first = await client.auth.me().catch((error: Error) => error.message);
      return { first, list: await client.entities.Todo?.list(), hasToken: client.auth.hasToken() };
    },
    deviation: {
      id: 'drop-rejected-token',
      adjust(reference) {
        // The reference keeps sending the dead token: its second request is refused too.
        const adjusted = copy(reference);
        const second = adjusted.requests[1];
        if (second) delete second.headers.authorization;
        adjusted.outcome = { result: { first: 'Token expired', list: [], hasToken: false } };
        return adjusted;
      },
    },
  },
  {
    name: 'createClient({ appId }) defaults to https://base44.app',
    covers: ['getConfig', 'aiGateway.connection', 'agents.getWhatsAppConnectURL'],
    config: { serverUrl: undefined, token: 'user-token' },
    run: async (client) => [
      client.getConfig(),
      client.aiGateway.connection(),
      client.agents.getWhatsAppConnectURL('helper'),
    ],
  },
  {
    name: 'getConfig',
    covers: ['getConfig'],
    config: { requiresAuth: true },
    run: async (client) => client.getConfig(),
  },
);
