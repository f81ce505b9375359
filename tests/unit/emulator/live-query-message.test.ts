/**
 * The `update_model` packet a live query's watch is sent (emulator/realtime/live-query-message.ts):
 * built from the change's text escaped once, it must be exactly what socket.io's own encoder makes
 * of `emit('update_model', { room, data })`, for records holding anything JSON can (quotes,
 * backslashes, control characters, line separators, emoji, lone surrogates), so clients (our SDK,
 * socket.io-client) read the same message as before.
 */
import { Encoder, PacketType } from 'socket.io-parser';

import type { EntityRecord } from '@/emulator/core/types';
import type { ResultRecord } from '@/emulator/realtime/live-query-diff';
import { packetText, updateData, updatePacket, updateText } from '@/emulator/realtime/live-query-message';
import { LiveRow } from '@/emulator/realtime/live-query-rows';

const AWKWARD = [
  'plain',
  'a "quoted" \\ path',
  'tab\tnew\nline\u0000',
  'sep\u2028\u2029',
  'emoji 😀',
  'lone \ud800 half',
  '</script>',
];

function row(id: string, name: string): LiveRow {
  const record: EntityRecord = {
    id,
    created_date: '2026-11-28T04:00:00.000Z',
    updated_date: '2026-11-28T04:00:00.000Z',
    created_by: 'ana@example.com',
    name,
    nested: { list: [name, 1, null, true] },
  };
  return new LiveRow(id, record, record as ResultRecord, []);
}

function socketIoEncoding(room: string, data: string): string {
  const [encoded] = new Encoder().encode({ type: PacketType.EVENT, nsp: '/', data: ['update_model', { room, data }] });
  return encoded as string;
}

describe('updatePacket', () => {
  it.each(AWKWARD.map((name, at) => [name, at]))('equals socket.io-parser for a record holding %j', (name, at) => {
    const written = row(`id-${at}"\\`, name);
    const text = updateText({
      cause: { type: 'update', id: written.id },
      changeType: 'modified',
      data: written,
      edit: {
        remove: [`gone "${name}"`],
        put: [
          { index: 3, row: written },
          { index: 7, row: row('other', name) },
        ],
      },
      timestamp: '2026-11-28T04:00:00.000Z',
    });
    const room = `entities:app:Todo:watch:q${at}`;
    const queryId = `q"${name}`;
    const packet = updatePacket(packetText(text), room, queryId, 42 + at);
    expect(packet).toBe(socketIoEncoding(room, updateData(text, queryId, 42 + at)));
    // And the data inside is the message the client parses.
    const [, payload] = JSON.parse(packet.slice(1)) as [string, { room: string; data: string }];
    expect(JSON.parse(payload.data)).toMatchObject({ query_id: queryId, seq: 42 + at, data: { name } });
  });

  it('equals socket.io-parser for a change without a record (a resync that removed rows)', () => {
    const text = updateText({
      cause: { type: 'resync', id: undefined },
      changeType: 'removed',
      data: undefined,
      edit: { remove: ['a', 'b'], put: [] },
      timestamp: '2026-11-28T04:00:00.000Z',
    });
    expect(updatePacket(packetText(text), 'entities:app:Todo:watch:q1', 'q1', 1)).toBe(
      socketIoEncoding('entities:app:Todo:watch:q1', updateData(text, 'q1', 1)),
    );
  });
});
