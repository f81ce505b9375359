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
