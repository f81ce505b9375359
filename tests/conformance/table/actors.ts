/** Actors: a minted connection, the proxy fallback for platforms without minting, messages both ways. */
import type { RunTools } from '../observe';
import { answerWith, rows } from './helpers';

/** Connects, exchanges one message each way, closes; returns what the caller received. */
async function converse(
  client: { actors: Record<string, (instanceId: string) => { connect(options?: { id?: string }): ActorLike }> },
  tools: RunTools,
) {
  const connection = client.actors.Chat?.('room 1').connect({ id: 'conn-1' });
  if (!connection) throw new Error('actors.Chat is missing');
  const received: unknown[] = [];
  const subscription = connection.subscribe((data) => received.push(data));
  connection.send({ type: 'say', text: 'Hallo' });
  await tools.until(() => tools.platform.actorSockets[0]?.received.length === 1, 'the message to reach the actor');
  tools.platform.sendToActors({ type: '__pong' });
  tools.platform.sendToActors({ type: 'said', text: 'Grüß dich' });
  await tools.until(() => received.length === 1, 'the actor message');
  subscription.unsubscribe();
  connection.close();
  return { id: connection.id, received };
}

interface ActorLike {
  readonly id: string;
  subscribe(callback: (data: unknown) => void): { unsubscribe(): void };
  send(data: unknown): void;
  close(): void;
}

export const actorRows = rows(
  {
    name: 'actors: a minted connection token opens the named socket',
    covers: ['actors.*'],
    config: { token: 'user-token', functionsVersion: 'draft' },
    answer: (request) => ({
      status: 200,
      body: { websocket_url: `ws://${String(request.headers.host)}/actor-direct?region=eu`, token: 'mint 1' },
    }),
    run: (client, tools) => converse(client, tools),
  },
  {
    name: 'actors: a platform without minting is reached through the proxy',
    covers: ['actors.*'],
    config: { token: 'user-token' },
    answer: answerWith({ message: 'Minting is not supported' }, 409),
    run: (client, tools) => converse(client, tools),
  },
);
