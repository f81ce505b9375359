/**
 * Applying entity changes to the default listing (newest first, server page of 50): exact where the
 * list alone decides, null (refetch) where only the server knows, and idempotent for replays.
 */
import { applyToDefaultList, SERVER_DEFAULT_LIMIT } from '@/lib/data/live-entity-changes';
import type { EntityChangeEvent, EntityRecord } from '@/lib/sdk';

type Item = { title: string };
const record = (id: string, title = id): EntityRecord<Item> => ({
  id,
  title,
  created_date: '2025-01-01T00:00:00.000Z',
  updated_date: '2025-01-01T00:00:00.000Z',
});
const change = (
  type: EntityChangeEvent['type'],
  data: EntityRecord<Item> | undefined,
  id = data?.id ?? 'x',
): EntityChangeEvent<Item> => ({
  type,
  id,
  data,
  timestamp: '2025-01-01T00:00:00.000Z',
});
const ids = (list: EntityRecord<Item>[] | null) => list?.map((item) => item.id) ?? null;
const page = (size: number) => Array.from({ length: size }, (_, index) => record(`r${index}`));

describe('create', () => {
  it('puts the new record first', () => {
    expect(ids(applyToDefaultList([record('a')], change('create', record('b'))))).toEqual(['b', 'a']);
  });

  it('replaces a record it already has, in place (a replayed create)', () => {
    const list = [record('b'), record('a')];
    const once = applyToDefaultList(list, change('create', record('a', 'again')));
    expect(once?.map((item) => item.title)).toEqual(['b', 'again']);
    expect(applyToDefaultList(once ?? [], change('create', record('a', 'again')))).toEqual(once);
  });

  it('leaves a full page and a create without data to the server', () => {
    expect(applyToDefaultList(page(SERVER_DEFAULT_LIMIT), change('create', record('new')))).toBeNull();
    expect(applyToDefaultList([], change('create', undefined, 'new'))).toBeNull();
  });
});

describe('update', () => {
  it('replaces the record where it is', () => {
    const updated = applyToDefaultList([record('b'), record('a')], change('update', record('a', 'edited')));
    expect(updated?.map((item) => item.title)).toEqual(['b', 'edited']);
  });

  it('asks the server about a record a short list does not have (its create was missed)', () => {
    expect(applyToDefaultList([record('a')], change('update', record('ghost')))).toBeNull();
  });

  it('ignores a record beyond a full page, since updates do not move records', () => {
    const full = page(SERVER_DEFAULT_LIMIT);
    expect(applyToDefaultList(full, change('update', record('beyond')))).toBe(full);
  });

  it('asks the server when the update carries no record', () => {
    expect(applyToDefaultList([record('a')], change('update', undefined, 'a'))).toBeNull();
  });
});

describe('delete', () => {
  it('removes the record, and deleting it again changes nothing', () => {
    const once = applyToDefaultList([record('b'), record('a')], change('delete', undefined, 'a'));
    expect(ids(once)).toEqual(['b']);
    expect(applyToDefaultList(once ?? [], change('delete', undefined, 'a'))).toBe(once);
  });

  it('leaves a delete from a full page to the server, which moves the next record up', () => {
    expect(applyToDefaultList(page(SERVER_DEFAULT_LIMIT), change('delete', undefined, 'r3'))).toBeNull();
  });
});
