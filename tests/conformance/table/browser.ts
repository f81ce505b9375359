/** Calls that behave differently in a browser: visitor ids, stored and handed-over tokens, navigations, analytics. */
import type { Observation } from '../observe';
import { answerByPath, answerWith, captureConsoleErrors, copy, record, rows } from './helpers';

const VISITOR = { base44_analytics_session_id: 'visitor-1' };

/** Makes the page's storage refuse writes and removals, as a full or blocked storage does. */
function failingStorage(): () => void {
  const storage = globalThis.localStorage;
  const { setItem, removeItem } = storage;
  const refuse = () => {
    throw new Error('The quota has been exceeded.');
  };
  storage.setItem = refuse;
  storage.removeItem = refuse;
  return () => {
    storage.setItem = setItem;
    storage.removeItem = removeItem;
  };
}

/** Replaces every event timestamp and generated id, which differ between any two runs. */
const stableAnalytics = (observation: Observation): Observation => {
  const stable = copy(observation);
  for (const request of stable.requests) {
    const body = request.body as { json?: { events?: Record<string, unknown>[] } } | undefined;
    for (const event of body?.json?.events ?? []) event.timestamp = '<time>';
  }
  return stable;
};

export const browserRows = rows(
  {
    name: 'browser: an anonymous request names the page and the stored visitor',
    covers: ['entities.*.list'],
    env: 'browser',
    storage: VISITOR,
    answer: answerWith([record('r1')]),
    run: (client) => client.entities.Todo!.list(),
  },
  {
    name: 'browser: without a stored visitor id, ours does not store a new one',
    covers: ['entities.*.list'],
    env: 'browser',
    run: (client) => client.entities.Todo!.list(),
    normalise(observation) {
      const stable = copy(observation);
      for (const request of stable.requests) {
        if (request.headers['x-base44-anonymous-id']) request.headers['x-base44-anonymous-id'] = '<generated>';
      }
      return stable;
    },
    deviation: {
      id: 'visitor-id-not-stored',
      adjust(reference) {
        const adjusted = copy(reference);
        delete adjusted.storage.base44_analytics_session_id;
        return adjusted;
      },
    },
  },
  {
    name: 'browser: the stored token is used',
    covers: ['auth.me'],
    env: 'browser',
    storage: { base44_access_token: 'stored-token' },
    answer: answerWith({ id: 'u1' }),
    run: (client) => client.auth.me(),
  },
  {
    name: 'browser: a token handed over in the address is stored, stripped and used',
    covers: ['entities.*.list'],
    env: 'browser',
    pageUrl: 'https://site.example/start?access_token=url-token&tab=1#top',
    run: (client) => client.entities.Todo!.list(),
  },
  {
    name: 'browser: a token that cannot be stored (or removed) is logged with console.error, not thrown',
    covers: ['auth.setToken', 'auth.logout'],
    env: 'browser',
    async run(client) {
      const logged = captureConsoleErrors();
      const restore = failingStorage();
      try {
        client.auth.setToken('kept-in-memory');
        const held = client.auth.hasToken();
        client.auth.logout('/bye');
        return { held, logged: logged.lines };
      } finally {
        restore();
        logged.stop();
      }
    },
  },
  {
    name: 'browser: isAuthenticated asks the server without a token',
    covers: ['auth.isAuthenticated'],
    env: 'browser',
    storage: VISITOR,
    answer: answerWith({ message: 'Not signed in' }, 401),
    run: (client) => client.auth.isAuthenticated(),
  },
  {
    name: 'browser: logout ends the platform session and comes back to this page',
    covers: ['auth.logout'],
    env: 'browser',
    storage: { base44_access_token: 'stored-token', token: 'stored-token' },
    run: async (client) => client.auth.logout(),
  },
  {
    name: 'browser: logout to a path comes back there',
    covers: ['auth.logout'],
    env: 'browser',
    config: { appBaseUrl: 'https://login.example' },
    run: async (client) => client.auth.logout('/bye'),
  },
  {
    name: 'browser: logout forwards another origin as given (the platform decides where it may return)',
    covers: ['auth.logout'],
    env: 'browser',
    run: async (client) => client.auth.logout('https://elsewhere.example/next'),
  },
  {
    name: 'browser: redirectToLogin',
    covers: ['auth.redirectToLogin'],
    env: 'browser',
    config: { appBaseUrl: 'https://login.example' },
    run: async (client) => client.auth.redirectToLogin('/after?x=1'),
  },
  {
    name: 'browser: redirectToLogin forwards another origin as given (the login page decides)',
    covers: ['auth.redirectToLogin'],
    env: 'browser',
    run: async (client) => client.auth.redirectToLogin('https://elsewhere.example/'),
  },
  {
    name: 'browser: loginWithProvider for Google, another provider and SSO',
    covers: ['auth.loginWithProvider'],
    env: 'browser',
    run: async (client) => {
      client.auth.loginWithProvider('google', '/dash');
      client.auth.loginWithProvider('microsoft');
      client.auth.loginWithProvider('sso', '/sso-back');
    },
  },
  {
    name: 'browser: loginWithProvider inside a frame signs in through a popup',
    covers: ['auth.loginWithProvider'],
    env: 'browser',
    framed: true,
    async run(client, tools) {
      client.auth.loginWithProvider('google', '/after');
      await tools.until(tools.popupOpened, 'the popup');
      tools.postFromPopup({ access_token: 'forged' }, 'https://evil.example');
      tools.postFromPopup({ access_token: 'popup-token', is_new_user: true }, 'https://site.example');
      return 'signed in';
    },
    deviation: {
      id: 'popup-token-not-in-address',
      adjust(reference) {
        const adjusted = copy(reference);
        adjusted.navigations = adjusted.navigations.map((url) => {
          if (url.startsWith('popup:')) return url;
          const parsed = new URL(url);
          parsed.searchParams.delete('access_token');
          return parsed.href;
        });
        adjusted.storage = { ...adjusted.storage, base44_access_token: 'popup-token', token: 'popup-token' };
        return adjusted;
      },
    },
  },
  {
    name: 'browser: requiresAuth sends a signed-out visitor to login',
    covers: ['getConfig', 'auth.isAuthenticated'],
    env: 'browser',
    storage: VISITOR,
    config: { requiresAuth: true },
    answer: answerByPath([['/User/me', { status: 401, body: { message: 'Not signed in' } }]]),
    async run(client, tools) {
      await tools.until(() => tools.navigationCount() === 1, 'the redirect to login');
      return client.getConfig();
    },
  },
  {
    name: 'browser: analytics, when the site enables it, sends what the reference sends',
    covers: ['analytics.track'],
    env: 'browser',
    storage: VISITOR,
    config: { analytics: { enabled: true } },
    async run(client, tools) {
      client.analytics.track({ eventName: 'signup', properties: { plan: 'pro', seats: 3 } });
      await tools.until(() => tools.requestCount() >= 2, 'two batches');
      return 'tracked';
    },
    normalise: stableAnalytics,
  },
  {
    name: 'browser: analytics is off unless the site enables it',
    covers: ['analytics.track'],
    env: 'browser',
    storage: VISITOR,
    config: { analytics: undefined },
    async run(client) {
      client.analytics.track({ eventName: 'signup' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return 'tracked';
    },
    normalise: stableAnalytics,
    deviation: {
      id: 'analytics-off-by-default',
      adjust(reference) {
        const adjusted = copy(reference);
        adjusted.requests = [];
        return adjusted;
      },
    },
  },
);
