/**
 * Differences the suite folds away for every row, each one a documented deviation (its id is in
 * docs/SDK-DEVIATIONS.md). Applied to both observations, so they only hide what the id describes.
 */
import type { Observation } from './observe';

export interface GlobalNormalisation {
  id: string;
  apply(observation: Observation): Observation;
}

export const GLOBAL_NORMALISATIONS: readonly GlobalNormalisation[] = [
  {
    // Node's axios adapter declares a JSON body on body-less requests; in a browser neither client does.
    id: 'content-type-only-with-body',
    apply(observation) {
      for (const request of observation.requests)
        if (request.body === undefined) delete request.headers['content-type'];
      return observation;
    },
  },
  {
    // The reference emits `join` twice for a room subscribed before the socket connected (once at
    // subscribe, once on connect); we join once per connection. A repeated join of a joined room is a no-op.
    id: 'single-join-per-connection',
    apply(observation) {
      const joined = new Set<string>();
      observation.socketEvents = observation.socketEvents.filter((entry) => {
        const key = `${entry.connection}:${entry.room}`;
        if (entry.event === 'leave') {
          joined.delete(key);
          return true;
        }
        if (joined.has(key)) return false;
        joined.add(key);
        return true;
      });
      return observation;
    },
  },
];

export function normalise(observation: Observation): Observation {
  return GLOBAL_NORMALISATIONS.reduce((current, normalisation) => normalisation.apply(current), observation);
}
