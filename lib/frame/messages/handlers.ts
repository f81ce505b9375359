/**
 * Handling parsed editor messages: one handler per message type, in a map typed by the message
 * union. A message type added to the parser (incoming.ts) and handled nowhere is then a compile
 * error in the map that is missing it, not a message silently dropped at run time.
 */
import type { IncomingMessage, IncomingMessageType } from './incoming';

/** The message of one type. */
export type IncomingMessageOf<K extends IncomingMessageType> = Extract<IncomingMessage, { type: K }>;

/** One handler for each message type of `K` (all of them by default). */
export type IncomingMessageHandlers<K extends IncomingMessageType = IncomingMessageType> = {
  readonly [T in K]: (message: IncomingMessageOf<T>) => void;
};

/** Calls the handler of `message`'s type. */
export function dispatchIncomingMessage(handlers: IncomingMessageHandlers, message: IncomingMessage): void {
  // The map pairs each type with its handler; TypeScript cannot follow that pairing through a union.
  (handlers[message.type] as (message: IncomingMessage) => void)(message);
}
