import { encodeRequestBody, holdsFiles, toFormData } from '@/lib/sdk/core/request-body';

describe('encodeRequestBody: JSON by default, multipart only for files', () => {
  it('sends no body for undefined', () => {
    expect(encodeRequestBody(undefined)).toEqual({ body: undefined, contentType: undefined });
  });

  it.each([
    ['an object', { title: 'x', n: 1 }],
    ['an array', [{ a: 1 }, { a: 2 }]],
    ['a nested file is not top-level, so JSON', { nested: { file: 'not-a-blob' } }],
    ['null', null],
    ['a string', 'plain'],
  ])('encodes %s as JSON', (_label, payload) => {
    expect(encodeRequestBody(payload)).toEqual({ body: JSON.stringify(payload), contentType: 'application/json' });
  });

  it('passes a FormData through as the same object (the reference sent an empty body)', () => {
    const form = new FormData();
    form.append('file', new File(['abc'], 'a.txt'));
    const encoded = encodeRequestBody(form);
    expect(encoded.body).toBe(form);
    expect(encoded.contentType).toBeUndefined();
  });

  it('turns an object holding a File into FormData and leaves the boundary to fetch', () => {
    const file = new File(['hello'], 'hello.txt', { type: 'text/plain' });
    const encoded = encodeRequestBody({ file, note: 'n' });
    expect(encoded.contentType).toBeUndefined();
    expect(encoded.body).toBeInstanceOf(FormData);
  });
});

describe('toFormData', () => {
  it('keeps file names, JSON-encodes objects and arrays, String()s primitives, skips undefined', async () => {
    const file = new File(['hello'], 'report.csv', { type: 'text/csv' });
    const blob = new Blob(['raw']);
    const form = toFormData({
      file,
      blob,
      meta: { a: 1 },
      tags: ['x', 'y'],
      count: 3,
      flag: false,
      empty: null,
      skipped: undefined,
    });

    const sentFile = form.get('file');
    expect(sentFile).toBeInstanceOf(File);
    expect((sentFile as File).name).toBe('report.csv');
    expect(await (sentFile as File).text()).toBe('hello');
    expect((form.get('blob') as File).name).toBe('blob');
    expect(form.get('meta')).toBe('{"a":1}');
    expect(form.get('tags')).toBe('["x","y"]');
    expect(form.get('count')).toBe('3');
    expect(form.get('flag')).toBe('false');
    expect(form.get('empty')).toBe('null');
    expect(form.has('skipped')).toBe(false);
  });
});

describe('holdsFiles', () => {
  it('is true only for plain objects with a top-level File or Blob', () => {
    expect(holdsFiles({ f: new Blob(['x']) })).toBe(true);
    expect(holdsFiles({ f: new File(['x'], 'x') })).toBe(true);
    expect(holdsFiles({ f: 'x' })).toBe(false);
    expect(holdsFiles([new Blob(['x'])])).toBe(false);
    expect(holdsFiles({ deep: { f: new Blob(['x']) } })).toBe(false);
    expect(holdsFiles(null)).toBe(false);
  });
});
