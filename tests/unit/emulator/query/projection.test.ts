/**
 * @jest-environment node
 *
 * Inclusion projection (query/projection.ts) as MongoDB's find() applies it: `id` always, fields in
 * stored order, paths through arrays of documents, a numeric segment as a field name, and
 * colliding paths refused.
 */
import { projectFields, ProjectionCollision } from '@/emulator/query/projection';

const RECORD = {
  id: 'r1',
  title: 'Journal',
  size: { h: 14, w: 21, uom: 'cm' },
  instock: [{ warehouse: 'A', qty: 5 }, { warehouse: 'C', qty: 15 }, 'loose', [{ qty: 1, x: 2 }]],
  tags: ['a', 'b'],
  note: null,
};

describe('projectFields', () => {
  it.each<[string, string[], Record<string, unknown>]>([
    ['one field, and id', ['title'], { id: 'r1', title: 'Journal' }],
    ['id named itself', ['id', 'title'], { id: 'r1', title: 'Journal' }],
    ['stored order, not the order asked', ['tags', 'title'], { id: 'r1', title: 'Journal', tags: ['a', 'b'] }],
    ['a nested field', ['size.uom'], { id: 'r1', size: { uom: 'cm' } }],
    [
      'through an array: documents projected, scalars dropped, nested arrays walked',
      ['instock.qty'],
      { id: 'r1', instock: [{ qty: 5 }, { qty: 15 }, [{ qty: 1 }]] },
    ],
    ['a numeric segment is a field name, not a position', ['instock.0'], { id: 'r1', instock: [{}, {}, [{}]] }],
    ['below a scalar: the field is left out', ['title.length'], { id: 'r1' }],
    ['below an array of scalars: an empty array', ['tags.x'], { id: 'r1', tags: [] }],
    ['a missing field', ['nothing'], { id: 'r1' }],
    ['a null field', ['note'], { id: 'r1', note: null }],
    ['an inherited name is no field', ['toString'], { id: 'r1' }],
    ['two siblings', ['size.w', 'size.h'], { id: 'r1', size: { h: 14, w: 21 } }],
  ])('%s', (_label, fields, projected) => {
    expect(projectFields([RECORD], fields)).toEqual([projected]);
  });

  it.each<[string[], string]>([
    [['size', 'size.h'], 'Path collision at size.h'],
    [['size.h', 'size'], 'Path collision at size'],
    [['id.x'], 'Path collision at id.x'],
  ])('refuses %p: %s', (fields, message) => {
    expect(() => projectFields([RECORD], fields)).toThrow(new ProjectionCollision(message));
  });
});
