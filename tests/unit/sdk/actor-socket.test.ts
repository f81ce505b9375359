/**
 * The actor socket's small decisions: which scheme the proxy URL gets (the token travels in its
 * query), the reconnect backoff's jitter, and the bound on unsent messages.
 */
import { proxyActorUrl, retryDelay } from '@/lib/sdk/actors/actor-socket.lazy';
import type { ActorsContext } from '@/lib/sdk/actors/actor-types';
import { createActorsModule } from '@/lib/sdk/actors/actors';
import { MAX_QUEUED_MESSAGES } from '@/lib/sdk/actors/send-queue';
import { ErrorCodes, isPlatformError } from '@/lib/sdk/core/errors';
import type { Transport } from '@/lib/sdk/core/transport';

const hangingTransport: Transport = {
  baseUrl: 'http://127.0.0.1:9/api',
  requestRaw: () => new Promise(() => undefined),
  request: () => new Promise(() => undefined),
};
const context = (host: string): ActorsContext => ({
  appId: 'app-1',
  host,
  functionsVersion: undefined,
  getToken: () => 'user-token',
  mintTransport: hangingTransport,
});

describe('proxyActorUrl: plain ws only on loopback and private networks', () => {
  it.each([
    ['https://172.2.0.1', 'wss'],
    ['https://172.200.3.4', 'wss'],
    ['https://platform.example', 'wss'],
    ['http://172.20.0.1:8080', 'ws'],
    ['http://127.0.0.1:3001', 'ws'],
    ['http://[::1]:3001', 'ws'],
    ['http://192.168.0.5', 'ws'],
  ])('%s -> %s', (host, scheme) => {
    const url = proxyActorUrl(context(host), 'Chat', 'room-1', 'conn-1');
    expect(url.startsWith(`${scheme}://`)).toBe(true);
    expect(new URL(url).searchParams.get('token')).toBe('user-token');
  });
});

describe('retryDelay: exponential backoff with jitter', () => {
  it('spreads each attempt over the upper half of its ceiling', () => {
    expect(retryDelay(0, () => 0)).toBe(500);
    expect(retryDelay(0, () => 1)).toBe(1000);
    expect(retryDelay(3, () => 0.5)).toBeCloseTo(0.75 * 1000 * 1.3 ** 3);
    expect(retryDelay(50, () => 0)).toBe(5000);
    expect(retryDelay(50, () => 1)).toBe(10_000);
  });

  it('does not give two clients the same wait', () => {
    const waits = new Set(Array.from({ length: 20 }, () => retryDelay(4)));
    expect(waits.size).toBeGreaterThan(1);
  });
});

describe('the send queue of a connection that is not open', () => {
  it(`keeps at most ${MAX_QUEUED_MESSAGES} messages and refuses the next with SEND_QUEUE_FULL`, async () => {
    const { module, closeAll } = createActorsModule(context('https://platform.example'));
    const connection = module.Chat!('room-1').connect({ id: 'conn-1' });
    for (let index = 0; index < MAX_QUEUED_MESSAGES; index += 1) connection.send({ index });
    const refused = (() => {
      try {
        connection.send({ index: 'one too many' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(isPlatformError(refused) && refused.code).toBe(ErrorCodes.sendQueueFull);
    // Still bounded once the socket code has loaded and taken the queue over.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(() => connection.send({ index: 'still too many' })).toThrow(/unsent messages/);
    closeAll();
  });

  it('refuses data JSON cannot encode with INVALID_ARGUMENT', () => {
    const { module, closeAll } = createActorsModule(context('https://platform.example'));
    const connection = module.Chat!('room-2').connect();
    let caught: unknown;
    try {
      connection.send({ n: BigInt(1) });
    } catch (error) {
      caught = error;
    }
    expect(isPlatformError(caught) && caught.code).toBe(ErrorCodes.invalidArgument);
    closeAll();
  });
});
