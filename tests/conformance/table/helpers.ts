/** Small builders shared by the table's rows. */
import type { Answer, RecordedRequest } from '@/tests/integration/sdk/recording-server';

import type { ConformanceClient, Observation, Row } from '../observe';

/** Answers every request with `status` and `body` (and headers). */
export const answerWith =
  (body: unknown, status = 200, headers?: Record<string, string>) =>
  (): Answer => ({ status, body, headers });

/** Answers by the request's path suffix; unmatched requests get 200 `{ ok: true }`. */
export const answerByPath =
  (routes: [suffix: string, answer: Answer][]) =>
  (request: RecordedRequest): Answer =>
    routes.find(([suffix]) => new URL(request.url, 'http://x').pathname.endsWith(suffix))?.[1] ?? {
      status: 200,
      body: { ok: true },
    };

/** A record as the platform returns it. */
export const record = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  created_date: '2026-01-01T00:00:00.000Z',
  updated_date: '2026-01-02T00:00:00.000Z',
  created_by: 'user@example.com',
  ...fields,
});

/** A deep copy to adjust for a deviation without touching the reference observation. */
export function copy(observation: Observation): Observation {
  return structuredClone(observation);
}

/**
 * Ids and names that contain "/", "?", "#" or "%": the reference puts them into the path raw, so they
 * address another route (or lose their tail as a query or fragment); ours sends each as one segment.
 */
export const encodedSegments = (segments: (reference: string[]) => string[]) => ({
  id: 'encoded-path-segments',
  adjust(reference: Observation): Observation {
    const adjusted = copy(reference);
    for (const request of adjusted.requests) request.path = segments(request.path);
    return adjusted;
  },
});

/** Argument errors are Base44Errors with `code`; the reference throws a bare Error (same message). */
export const argumentError = (code: 'INVALID_ARGUMENT' | 'BROWSER_REQUIRED' = 'INVALID_ARGUMENT') => ({
  id: 'argument-error-code',
  adjust(reference: Observation): Observation {
    const adjusted = copy(reference);
    if ('error' in adjusted.outcome) adjusted.outcome.error = { ...adjusted.outcome.error, name: 'Base44Error', code };
    return adjusted;
  },
});

export const argumentErrorCode = argumentError();

/** Records console.error calls as `[first argument, the error's message]`. */
export function captureConsoleErrors() {
  const lines: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    lines.push(args.map((arg) => (arg instanceof Error ? arg.message : arg)));
  };
  return { lines, stop: () => (console.error = original) };
}

export function rows(...list: Row[]): Row[] {
  return list;
}

/** A File the way a browser input produces it. */
export const textFile = (name: string, text: string, type = 'text/plain') => new File([text], name, { type });

/** `entities.<name>` of either client (or its service role), failing loudly if the proxy gives nothing. */
export function entity(client: Pick<ConformanceClient, 'entities'>, name = 'Todo') {
  const handler = client.entities[name];
  if (!handler) throw new Error(`entities.${name} is missing`);
  return handler;
}

/** The service role subscribes on its own socket, authenticated with the service token `svc-token`. */
export const serviceRoleSocket = {
  id: 'service-role-socket',
  adjust(reference: Observation): Observation {
    const adjusted = copy(reference);
    for (const handshake of adjusted.handshakes) handshake.query = { app_id: 'app-1', token: 'svc-token' };
    return adjusted;
  },
};
