import type { ResultEdit } from './live-query-diff';
import type { LiveRow } from './live-query-rows';
import type { Cause } from './live-query-window';

/**
 * The text of `update_model`'s `data` (docs/LIVE-QUERIES.md): the JSON of `{ type, change_type, id?,
 * data?, timestamp, query_id, seq, remove, put }`. Every watch of a window gets the same edit, so
 * the text is made once around the two fields that differ (`query_id`, `seq`), and each record in it
 * is the row's own JSON text, made once for all of them.
 */

export interface UpdateText {
  /** Everything before the query id. */
  head: string;
  /** Everything after the seq. */
  tail: string;
}

export interface UpdateContent {
  cause: Cause;
  changeType: 'added' | 'modified' | 'removed';
  /** The written record as the subscriber sees it, when it is in the result. */
  data: LiveRow | undefined;
  edit: ResultEdit<LiveRow>;
  timestamp: string;
}

export function updateText({ cause, changeType, data, edit, timestamp }: UpdateContent): UpdateText {
  let head = `{"type":${JSON.stringify(cause.type)},"change_type":${JSON.stringify(changeType)}`;
  if (cause.id !== undefined) head += `,"id":${JSON.stringify(cause.id)}`;
  if (data) head += `,"data":${data.json}`;
  head += `,"timestamp":${JSON.stringify(timestamp)},"query_id":`;
  const put = edit.put.map(({ index, row }) => `{"index":${index},"record":${row.json}}`).join(',');
  return { head, tail: `,"remove":${JSON.stringify(edit.remove)},"put":[${put}]}` };
}

/** One watch's `data`: the shared text with its query id and seq. */
export function updateData(text: UpdateText, queryId: string, seq: number): string {
  return `${text.head}${JSON.stringify(queryId)},"seq":${seq}${text.tail}`;
}

/** How `text` reads inside a JSON string: JSON.stringify's escapes, without the quotes. */
const insideString = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The shared text as it reads inside the `data` string of the socket.io packet (escaped once per
 * change, not once per watch: escaping a record's JSON was most of socket.io's encoding cost).
 */
export function packetText(text: UpdateText): UpdateText {
  return { head: insideString(text.head), tail: insideString(text.tail) };
}

/**
 * One watch's `update_model` `{ room, data }` as socket.io-parser 4 encodes an event of the main
 * namespace without acknowledgement (`2` and the JSON of `["update_model", payload]`), built from
 * the escaped shared text: exactly the bytes `socket.emit('update_model', { room, data:
 * updateData(...) })` sends (tests/unit/emulator/live-query-message.test.ts compares them).
 * JSON.stringify escapes character by character and the parts meet at ASCII characters, so the
 * escaped parts joined are the escaped whole.
 */
export function updatePacket(escaped: UpdateText, room: string, queryId: string, seq: number): string {
  const data = `${escaped.head}${insideString(JSON.stringify(queryId))},\\"seq\\":${seq}${escaped.tail}`;
  return `2["update_model",{"room":${JSON.stringify(room)},"data":"${data}"}]`;
}
