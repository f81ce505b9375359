/**
 * The user of the churn benchmark (abuse.ts), in a process of its own so that its client work does
 * not slow the reads measured beside it: `node --import tsx churner.ts URL TOKEN` opens five sockets
 * as that user and on each subscribes to an unfiltered window of 10,000 rows, leaves it once
 * answered, and subscribes again, as fast as the server answers. Prints `answered N` each second.
 */
import { APP_ID, liveQuerySocket } from './records';

const SOCKETS = 5;
const ENTITY = 'AbuseBench';

async function churn(url: string, token: string): Promise<void> {
  let answered = 0;
  const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => liveQuerySocket(url, token)));
  sockets.forEach((socket, at) => {
    let next = 0;
    const subscribe = () => {
      const options = { limit: 10_000, sort: next % 2 === 0 ? 'rank' : '-rank' };
      socket.emit('subscribe_query', { app_id: APP_ID, entity_name: ENTITY, query_id: `churn${at}-${next}`, options });
      next += 1;
    };
    socket.on('subscribed', ({ query_id: queryId }: { query_id: string }) => {
      answered += 1;
      socket.emit('unsubscribe_query', { app_id: APP_ID, entity_name: ENTITY, query_id: queryId });
      subscribe();
    });
    // Refused (the budget, or too many requests waiting): ask again a little later.
    socket.on('error', () => setTimeout(subscribe, 10));
    subscribe();
  });
  setInterval(() => console.log(`answered ${answered}`), 1000);
}

const [url, token] = process.argv.slice(2);
if (!url || !token) throw new Error('usage: churner.ts URL TOKEN');
void churn(url, token);
