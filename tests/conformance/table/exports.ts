/** The package's other exports: building a backend function's client from its request, and the token helpers. */
import { answerWith, argumentErrorCode, rows } from './helpers';

const functionRequest = (headers: Record<string, string>) => () => new Request('https://fn.example/run', { headers });

export const exportRows = rows(
  {
    name: 'createClientFromRequest: user, service role, state and data environment',
    covers: ['createClientFromRequest'],
    fromRequest: (serverUrl) =>
      functionRequest({
        'Base44-App-Id': 'app-1',
        'Base44-Api-Url': serverUrl,
        Authorization: 'Bearer user-token',
        'Base44-Service-Authorization': 'Bearer svc-token',
        'Base44-Functions-Version': 'draft',
        'Base44-State': 'state-1',
        'X-Data-Env': 'dev',
      })(),
    answer: answerWith([]),
    async run(client) {
      return [
        await client.entities.Todo?.list(),
        await client.asServiceRole.entities.Todo?.list(),
        (await client.functions.invoke('fn', { a: 1 })).data,
      ];
    },
  },
  {
    name: 'createClientFromRequest: an unknown data environment is not relayed',
    covers: ['createClientFromRequest'],
    fromRequest: (serverUrl) =>
      functionRequest({ 'Base44-App-Id': 'app-1', 'Base44-Api-Url': serverUrl, 'X-Data-Env': 'evil' })(),
    answer: answerWith([]),
    run: async (client) => client.entities.Todo?.list(),
  },
  {
    name: 'createClientFromRequest: a malformed Authorization header is refused',
    covers: ['createClientFromRequest'],
    fromRequest: (serverUrl) =>
      functionRequest({ 'Base44-App-Id': 'app-1', 'Base44-Api-Url': serverUrl, Authorization: 'Token abc' })(),
    run: async () => 'created',
    deviation: argumentErrorCode,
  },
  {
    name: 'createClientFromRequest: the app id is required',
    covers: ['createClientFromRequest'],
    fromRequest: () => functionRequest({})(),
    run: async () => 'created',
    deviation: argumentErrorCode,
  },
);
