/**
 * Defensive decoding of what the real-time server sends (docs/PLATFORM-NOTES.md "Real-time"): the
 * `update_model` envelope `{ room, data }`, entity changes and conversations. Nothing here throws;
 * bad input becomes null or a {@link RealtimeProblem}, which realtime.lazy.ts turns into a PlatformError for
 * the error listeners. (This file imports no runtime code from errors.ts: see realtime.lazy.ts.)
 */
import type { AgentConversation, AgentMessage, EntityChangeEvent, EntityFields, EntityRecord } from '../../core/types';

/** Codes of the errors real-time reports to subscribers. */
export const RealtimeErrorCodes = {
  /** An `update_model` whose envelope or data could not be understood. */
  malformedUpdate: 'MALFORMED_UPDATE',
  /** An `update_model` whose data is larger than {@link MAX_UPDATE_DATA_LENGTH}. */
  updateTooLarge: 'UPDATE_TOO_LARGE',
  /** The server sent an `error` event without a code of its own. */
  serverError: 'REALTIME_ERROR',
  /** The server refused the connection (bad app or token) without a code of its own. */
  connectionRefused: 'REALTIME_REFUSED',
  /** The handshake URL is over {@link MAX_SOCKET_URL_LENGTH}; nothing was sent. */
  urlTooLong: 'SOCKET_URL_TOO_LONG',
  /** The real-time code could not be loaded (offline, a deploy in between). */
  unavailable: 'REALTIME_UNAVAILABLE',
} as const;

/** What went wrong, before it becomes a PlatformError with these fields. */
export interface RealtimeProblem {
  message: string;
  code: string;
  data?: unknown;
  cause?: unknown;
}

/** A decoded value, or the problem to report instead. */
export type Decoded<T> = { value: T } | { problem: RealtimeProblem };

/**
 * Updates whose JSON text is longer than this are reported instead of parsed: parsing tens of
 * megabytes would freeze the page, and no entity record or conversation legitimately gets close.
 */
export const MAX_UPDATE_DATA_LENGTH = 5_000_000;

export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

// A server error's text ends up in UIs and logs; a runaway payload must not.
const MAX_ERROR_MESSAGE_LENGTH = 500;

const CHANGE_TYPES = new Set(['create', 'update', 'delete']);

/** Parses an entity room's `update_model` data; null when it is not a valid change event. */
export function parseEntityChange<T extends object = EntityFields>(data: unknown): EntityChangeEvent<T> | null {
  const event = parseJson(data);
  if (!isRecordObject(event) || typeof event.type !== 'string' || !CHANGE_TYPES.has(event.type)) return null;
  const record = isRecordObject(event.data) ? (event.data as EntityRecord<T>) : undefined;
  const id = typeof event.id === 'string' ? event.id : record?.id;
  if (typeof id !== 'string') return null;
  return {
    type: event.type as EntityChangeEvent['type'],
    id,
    data: record,
    timestamp: typeof event.timestamp === 'string' ? event.timestamp : new Date().toISOString(),
  };
}

/** `messages` with `message` in place of the one with its id, else appended. */
export function mergeMessage(messages: readonly AgentMessage[], message: AgentMessage): AgentMessage[] {
  const index = message.id === undefined ? -1 : messages.findIndex((existing) => existing?.id === message.id);
  return index === -1 ? [...messages, message] : messages.map((existing, i) => (i === index ? message : existing));
}

/**
 * Parses an agent room's `update_model` data (the whole conversation); null when malformed. The
 * platform also names the changed message under `_message`: it is merged into `messages` (replacing
 * the message with the same id, else appended) and dropped, so callers get a plain conversation.
 */
export function parseConversationUpdate(data: unknown): AgentConversation | null {
  const parsed = parseJson(data);
  if (!isRecordObject(parsed) || typeof parsed.id !== 'string' || !Array.isArray(parsed.messages)) return null;
  const { _message: changed, ...conversation } = parsed;
  if (isRecordObject(changed))
    conversation.messages = mergeMessage(parsed.messages as AgentMessage[], changed as AgentMessage);
  return conversation as AgentConversation;
}

/** One conversation update: the changed message (`_message`), and the whole conversation if it was sent. */
export interface ConversationChange {
  message: AgentMessage | undefined;
  conversation: AgentConversation | undefined;
}

/**
 * Parses an agent room's update. The platform sends `{ _message }` (maybe more): the message is merged
 * into the conversation loaded on subscribe, as the reference does. A whole conversation sent without
 * `_message` (older servers) replaces the state. Null when it is neither.
 */
export function parseConversationChange(data: unknown): ConversationChange | null {
  const parsed = parseJson(data);
  if (!isRecordObject(parsed)) return null;
  const message = isRecordObject(parsed._message) ? (parsed._message as AgentMessage) : undefined;
  const conversation = parseConversationUpdate(parsed) ?? undefined;
  return message || conversation ? { message, conversation } : null;
}

function describe(data: unknown): string {
  if (typeof data === 'string') return `a string of ${data.length} characters`;
  if (data === null) return 'null';
  return Array.isArray(data) ? 'an array' : `a value of type ${typeof data}`;
}

/** Parses `data` with `parse`; oversize and unparseable data become problems naming the room. */
function decode<T>(room: string, data: unknown, parse: (data: unknown) => T | null, expected: string): Decoded<T> {
  if (typeof data === 'string' && data.length > MAX_UPDATE_DATA_LENGTH) {
    return {
      problem: {
        message: `Ignored an update of ${room}: its data is ${data.length} characters, over the limit of ${MAX_UPDATE_DATA_LENGTH}`,
        code: RealtimeErrorCodes.updateTooLarge,
        data: { room, length: data.length },
      },
    };
  }
  const parsed = parse(data);
  if (parsed !== null) return { value: parsed };
  return {
    problem: {
      message: `Ignored a malformed update of ${room}: expected ${expected}, received ${describe(data)}`,
      code: RealtimeErrorCodes.malformedUpdate,
      data: { room },
    },
  };
}

/** An entity change, or the problem to report instead. */
export function decodeEntityChange<T extends object = EntityFields>(
  room: string,
  data: unknown,
): Decoded<EntityChangeEvent<T>> {
  return decode(room, data, (value) => parseEntityChange<T>(value), 'a change event { type, id, data }');
}

/** A conversation change, or the problem to report instead. */
export function decodeConversationChange(room: string, data: unknown): Decoded<ConversationChange> {
  return decode(room, data, parseConversationChange, 'a message { _message } or a conversation { id, messages }');
}

/** The `update_model` envelope `{ room, data }`; null when it names no room. */
export function parseUpdateEnvelope(message: unknown): { room: string; data: unknown } | null {
  if (!isRecordObject(message) || typeof message.room !== 'string') return null;
  return { room: message.room, data: message.data };
}

/** An `error` event from the server as a problem, plus the room it concerns, if it names one. */
export function parseServerError(payload: unknown): { room: string | undefined; problem: RealtimeProblem } {
  const fields = isRecordObject(payload) ? payload : {};
  let message = 'The real-time server reported an error';
  if (typeof fields.message === 'string' && fields.message !== '')
    message = fields.message.slice(0, MAX_ERROR_MESSAGE_LENGTH);
  else if (typeof payload === 'string' && payload !== '') message = payload.slice(0, MAX_ERROR_MESSAGE_LENGTH);
  const code = typeof fields.code === 'string' ? fields.code : RealtimeErrorCodes.serverError;
  return {
    room: typeof fields.room === 'string' ? fields.room : undefined,
    problem: { message, code, data: payload },
  };
}
