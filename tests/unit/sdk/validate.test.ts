import { isPlatformError } from '@/lib/sdk/core/errors';
import {
  apiPath,
  assertNamedParams,
  assertPathSegment,
  describeValue,
  isPlainObject,
  proxyKey,
} from '@/lib/sdk/core/validate';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('assertNamedParams (docs/SPEC.md section 5)', () => {
  it.each([
    ['a string', 'hello', 'hello'],
    ['a number', 42, '42'],
    ['an array', [1, 2], '[1,2]'],
    ['null', null, 'null'],
    ['a boolean', true, 'true'],
    ['a Date', new Date(0), '"1970-01-01T00:00:00.000Z"'],
    ['a Blob on its own', new Blob(['x']), '{}'],
  ])('rejects %s with the spec message', (_label, value, shown) => {
    const error = thrown(() => assertNamedParams('Integration', 'SendEmail', value));
    expect(isPlatformError(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Integration SendEmail must receive an object with named parameters, received: ${shown}`,
    );
    expect((error as { code?: string }).code).toBe('INVALID_ARGUMENT');
  });

  it('uses the Function wording for functions', () => {
    expect(() => assertNamedParams('Function', 'sum', 'x')).toThrow(
      'Function sum must receive an object with named parameters, received: x',
    );
  });

  it('accepts plain objects, null-prototype objects and FormData as they are', () => {
    const params = { a: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2 });
    const form = new FormData();
    expect(assertNamedParams('Function', 'f', params)).toBe(params);
    expect(assertNamedParams('Function', 'f', bare)).toBe(bare);
    expect(assertNamedParams('Function', 'f', form)).toBe(form);
  });

  it('treats an omitted argument as no parameters', () => {
    expect(assertNamedParams('Function', 'f', undefined)).toEqual({});
  });
});

describe('assertPathSegment and apiPath', () => {
  it.each(['', '.', '..', 42, null, undefined])('rejects %p', (value) => {
    expect(() => assertPathSegment('Record id', value)).toThrow(/Record id must/);
  });

  it('encodes every interpolated segment', () => {
    const id = 'a/b?c#d e%';
    expect(apiPath`/apps/${'my app'}/entities/${id}`).toBe('/apps/my%20app/entities/a%2Fb%3Fc%23d%20e%25');
  });

  it('refuses dot segments that the URL parser would resolve', () => {
    expect(() => apiPath`/apps/${'x'}/entities/${'..'}`).toThrow('must not be ".."');
  });
});

describe('helpers', () => {
  it('isPlainObject tells plain objects from arrays, instances and null', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
  });

  it('describeValue shortens long values and survives cycles', () => {
    expect(describeValue('x'.repeat(150))).toBe(`${'x'.repeat(100)}...`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
    expect(describeValue(undefined)).toBe('undefined');
  });

  it('proxyKey ignores symbols, then and private names', () => {
    expect(proxyKey('Todo')).toBe('Todo');
    expect(proxyKey('then')).toBeUndefined();
    expect(proxyKey('_internal')).toBeUndefined();
    expect(proxyKey(Symbol.iterator)).toBeUndefined();
  });
});
