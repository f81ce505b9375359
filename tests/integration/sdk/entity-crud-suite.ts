/**
 * One CRUD suite for any entity client (user-scoped or service role): the same behaviour is expected
 * from both, so both run exactly these tests.
 */
import { isPlatformError } from '@/lib/sdk/core/errors';
import type { EntityHandler } from '@/lib/sdk/entities/entities';

import { rejectionOf } from './harness';

export interface Note {
  title: string;
  priority: number;
  tags?: string[];
}

export interface CrudTarget {
  /** A handler for a collection no other test touches. */
  notes: () => EntityHandler<Note>;
  /** What `created_by` must say for records this client creates. */
  createdBy: string;
}

export function describeEntityCrud(label: string, target: () => CrudTarget): void {
  describe(`entity CRUD: ${label}`, () => {
    let notes: EntityHandler<Note>;
    beforeEach(async () => {
      notes = target().notes();
      await notes.deleteMany({});
    });

    it('create returns the stored record with platform fields; get reads it back', async () => {
      const created = await notes.create({ title: 'first', priority: 1, tags: ['a'] });
      expect(created).toMatchObject({ title: 'first', priority: 1, tags: ['a'], created_by: target().createdBy });
      expect(typeof created.id).toBe('string');
      expect(Date.parse(created.created_date)).not.toBeNaN();
      expect(await notes.get(created.id)).toEqual(created);
    });

    it('update changes only the given fields', async () => {
      const created = await notes.create({ title: 'draft', priority: 1 });
      const updated = await notes.update(created.id, { priority: 5 });
      expect(updated).toMatchObject({ id: created.id, title: 'draft', priority: 5 });
      expect((await notes.get(created.id)).priority).toBe(5);
    });

    it('list sorts, pages and projects fields', async () => {
      await notes.bulkCreate([
        { title: 'b', priority: 2 },
        { title: 'a', priority: 1 },
        { title: 'c', priority: 3 },
      ]);
      expect((await notes.list('priority')).map((note) => note.title)).toEqual(['a', 'b', 'c']);
      expect((await notes.list('-priority', 2)).map((note) => note.title)).toEqual(['c', 'b']);
      expect((await notes.list('priority', 1, 1)).map((note) => note.title)).toEqual(['b']);
      const projected = await notes.list('title', 1, 0, ['title']);
      expect(projected).toHaveLength(1);
      expect(projected[0]).toHaveProperty('title', 'a');
      expect(projected[0]).not.toHaveProperty('priority');
    });

    it('filter applies Mongo-like operators sent as JSON', async () => {
      await notes.bulkCreate([
        { title: 'low', priority: 1, tags: ['x'] },
        { title: 'mid', priority: 5, tags: ['y'] },
        { title: 'high', priority: 9, tags: ['x', 'y'] },
      ]);
      expect((await notes.filter({ priority: { $gt: 4 } }, 'priority')).map((note) => note.title)).toEqual([
        'mid',
        'high',
      ]);
      expect((await notes.filter({ title: { $in: ['low', 'high'] } }, '-priority')).map((note) => note.title)).toEqual([
        'high',
        'low',
      ]);
      expect(await notes.filter({ title: 'none' })).toEqual([]);
    });

    it('bulkCreate stores every record and returns them', async () => {
      const created = await notes.bulkCreate([
        { title: 'one', priority: 1 },
        { title: 'two', priority: 2 },
      ]);
      expect(created.map((note) => note.title)).toEqual(['one', 'two']);
      expect(await notes.list()).toHaveLength(2);
    });

    it('delete removes one record; reading it again is a 404', async () => {
      const created = await notes.create({ title: 'gone', priority: 1 });
      await notes.delete(created.id);
      const error = await rejectionOf(notes.get(created.id));
      expect(isPlatformError(error) && error.status).toBe(404);
    });

    it('deleteMany removes exactly the matching records', async () => {
      await notes.bulkCreate([
        { title: 'keep', priority: 1 },
        { title: 'drop', priority: 7 },
        { title: 'drop too', priority: 8 },
      ]);
      expect(await notes.deleteMany({ priority: { $gte: 7 } })).toMatchObject({ deleted: 2 });
      expect((await notes.list()).map((note) => note.title)).toEqual(['keep']);
    });

    it('importEntities uploads a CSV or JSON file as multipart and creates its records', async () => {
      const csv = new File(['title,priority\nfrom csv,3\n'], 'notes.csv', { type: 'text/csv' });
      expect(await notes.importEntities(csv)).toMatchObject({ imported: 1 });
      const json = new File([JSON.stringify([{ title: 'from json', priority: 4 }])], 'notes.json', {
        type: 'application/json',
      });
      expect(await notes.importEntities(json)).toMatchObject({ imported: 1 });
      expect((await notes.list('title')).map((note) => note.title)).toEqual(['from csv', 'from json']);
    });

    it('ids travel URL-encoded: an id with "/" and "?" reaches the server as one segment', async () => {
      const error = await rejectionOf(notes.get('a/b?c'));
      expect(isPlatformError(error) && [error.status, error.code]).toEqual([404, 'record_not_found']);
    });
  });
}
