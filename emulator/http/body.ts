import type { IncomingMessage } from 'node:http';
import busboy, { type Busboy } from 'busboy';

import { DomainError, invalidInput } from '../core/errors';
import { isJsonObject } from '../util/json-object';
import { nullPrototypeMap } from '../util/own';
import { HttpError } from './errors';

/**
 * Request body readers. The size limit is enforced while reading, never after buffering everything.
 * An oversize body is still drained (up to a hard cap) before the 413 goes out: clients that are
 * mid-upload then read the answer instead of seeing a reset connection.
 */

const DRAIN_CAP_BYTES = 256 * 1024 * 1024;

export function payloadTooLarge(limit: number): DomainError {
  return new DomainError('too_large', 'payload_too_large', `Request body is larger than the limit of ${limit} bytes`, {
    extraData: { limit_bytes: limit },
  });
}

/**
 * Hands each chunk of the request's body to `take` until its end, through the `data` and `end`
 * events (a `for await` over the request cost an async iterator and promises per request: about a
 * twentieth of a small write's time). `take` returning false stops reading and destroys the
 * request. Rejects, as that loop did, when the request fails or closes before its end.
 */
function readChunks(request: IncomingMessage, take: (chunk: Buffer) => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (request.readableEnded) return resolve();
    if (request.destroyed) return reject(new Error('The request closed before its body was read'));
    const settle = (error: Error | null) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      if (take(chunk)) return;
      settle(null);
      request.destroy();
    };
    const onEnd = () => settle(null);
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error('The request closed before its body was read'));
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    // A request another reader paused (busboy, once unpiped) flows only when resumed.
    request.resume();
  });
}

export async function readRawBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  const chunks: Buffer[] = [];
  let received = 0;
  let tooLarge = Number.isFinite(declared) && declared > limit;
  await readChunks(request, (chunk) => {
    received += chunk.length;
    if (received > limit) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
    // Drained up to the cap: stop reading and answer.
    return received <= DRAIN_CAP_BYTES;
  });
  if (tooLarge) throw payloadTooLarge(limit);
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

export function mediaType(request: IncomingMessage): string {
  const header = request.headers['content-type'] ?? '';
  return header.split(';')[0]?.trim().toLowerCase() ?? '';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Parses a JSON body. An empty body yields `undefined`. A non-empty body must be declared as JSON:
 * that also means a cross-site HTML form (which cannot send application/json without a CORS
 * preflight) can never drive a write.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readRawBody(request, limit);
  if (raw.length === 0) return undefined;
  const type = mediaType(request);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpError(415, `Expected Content-Type application/json, received "${type || 'none'}"`, {
      code: 'unsupported_media_type',
    });
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw invalidInput('Malformed JSON body', 'malformed_json', error instanceof Error ? error.message : undefined);
  }
}

/**
 * The top-level fields of a parsed body in a null-prototype map: routes read parameters as
 * `body.role` or `fields.to`, and a parameter the caller left out must read as undefined even if a
 * pollution bug planted that name on Object.prototype. (JSON.parse makes `__proto__` an own key.)
 */
function ownFields(value: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(nullPrototypeMap<unknown>(), value);
}

export async function readJsonObject(request: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const value = await readJsonBody(request, limit);
  if (!isJsonObject(value)) {
    throw invalidInput(`Expected a JSON object in the request body, received ${describe(value)}`, 'invalid_body');
  }
  return ownFields(value);
}

/** Same as readJsonObject but an absent body is an empty object (endpoints whose fields are all optional). */
export async function readOptionalJsonObject(
  request: IncomingMessage,
  limit: number,
): Promise<Record<string, unknown>> {
  const value = await readJsonBody(request, limit);
  if (value === undefined) return nullPrototypeMap<unknown>();
  if (!isJsonObject(value)) {
    throw invalidInput(`Expected a JSON object in the request body, received ${describe(value)}`, 'invalid_body');
  }
  return ownFields(value);
}

const MULTIPART_LIMITS = { fields: 1000, files: 100, parts: 1100 };

function malformedMultipart(detail: string): DomainError {
  return invalidInput('Malformed multipart body', 'malformed_multipart', detail);
}

/**
 * Parses multipart/form-data while it streams in, with busboy (the parser behind multer and
 * Fastify's multipart): the body limit counts every byte received, and part counts are capped, so a
 * hostile upload is refused early instead of being buffered whole. Entries keep their order.
 */
export async function readMultipart(request: IncomingMessage, limit: number): Promise<FormData> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  let parser: Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      limits: { ...MULTIPART_LIMITS, fieldSize: limit, fileSize: limit },
      defParamCharset: 'utf8',
    });
  } catch (error) {
    throw malformedMultipart(error instanceof Error ? error.message : String(error));
  }
  return new Promise<FormData>((resolve, reject) => {
    const entries: Promise<[string, string | File]>[] = [];
    let received = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(payloadTooLarge(limit));
    });
    parser.on('field', (name, value) => entries.push(Promise.resolve([name, value])));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      entries.push(
        new Promise((done) => {
          stream.on('close', () =>
            done([
              name,
              new File([Uint8Array.from(Buffer.concat(chunks))], info.filename ?? 'blob', { type: info.mimeType }),
            ]),
          );
        }),
      );
    });
    for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(event, () =>
        fail(
          new DomainError(
            'too_large',
            'too_many_parts',
            `A multipart body may have at most ${MULTIPART_LIMITS.parts} parts, ${MULTIPART_LIMITS.files} of them files`,
          ),
        ),
      );
    }
    parser.on('error', (error: unknown) =>
      fail(malformedMultipart(error instanceof Error ? error.message : String(error))),
    );
    parser.on('close', () => {
      void Promise.all(entries).then((parts) => {
        if (failed) return;
        const form = new FormData();
        for (const [name, value] of parts) form.append(name, value);
        resolve(form);
      });
    });
    request.pipe(parser);
  });
}

const RESERVED_PART_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export interface NamedPayload {
  fields: Record<string, unknown>;
  files: Record<string, File>;
}

/**
 * The payload of an integration or function call: a JSON object, or multipart where object values
 * arrive JSON-stringified and files keep their names. Anything that is not an object of named
 * parameters is refused with the platform's own wording.
 */
export async function readNamedPayload(
  request: IncomingMessage,
  limit: number,
  describeTarget: string,
): Promise<NamedPayload> {
  if (mediaType(request) === 'multipart/form-data') {
    const form = await readMultipart(request, limit);
    // Part names are the client's: null-prototype maps, and names that mean something to objects refused.
    const fields = nullPrototypeMap<unknown>();
    const files = nullPrototypeMap<File>();
    for (const [key, value] of form.entries()) {
      if (RESERVED_PART_NAMES.has(key))
        throw invalidInput(`"${key}" cannot be used as a parameter name`, 'invalid_parameter_name');
      if (typeof value === 'string') fields[key] = parseFormValue(value);
      else files[key] = value;
    }
    return { fields, files };
  }
  const value = await readJsonBody(request, limit);
  if (value === undefined) return { fields: nullPrototypeMap<unknown>(), files: nullPrototypeMap<File>() };
  if (!isJsonObject(value)) {
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    throw invalidInput(
      `${describeTarget} must receive an object with named parameters, received: ${shown.slice(0, 200)}`,
      'invalid_parameters',
    );
  }
  return { fields: ownFields(value), files: nullPrototypeMap<File>() };
}

/** Multipart object values were JSON-stringified by the client; everything else stays a string. */
function parseFormValue(value: string): unknown {
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

/** application/x-www-form-urlencoded, for the login page's plain HTML form. */
export async function readUrlEncodedForm(request: IncomingMessage, limit: number): Promise<URLSearchParams> {
  const raw = await readRawBody(request, limit);
  const type = mediaType(request);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, `Expected a form submission, received "${type || 'none'}"`, {
      code: 'unsupported_media_type',
    });
  }
  return new URLSearchParams(raw.toString('utf8'));
}

/**
 * Reads and discards what is left of a request body before answering, so a client still uploading
 * gets the response instead of a reset connection. Past the cap the connection is dropped instead.
 */
export async function drainRequest(request: IncomingMessage): Promise<void> {
  if (request.readableEnded || request.destroyed) return;
  let received = 0;
  try {
    await readChunks(request, (chunk) => {
      received += chunk.length;
      return received <= DRAIN_CAP_BYTES;
    });
  } catch {
    // The client went away; nothing left to drain.
  }
}
