/**
 * The shared helpers of lib/util: storage that never throws, and the object guard every parser of
 * outside data relies on.
 */
import { hasWindow, isPlainObject, originOf, readStorage, removeStorage, safeStorage, writeStorage } from '@/lib/util';

describe('storage that never throws', () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads, writes and removes in the area asked for', () => {
    expect(writeStorage('k', 'local')).toBe(true);
    expect(writeStorage('k', 'session', 'sessionStorage')).toBe(true);
    expect([readStorage('k'), readStorage('k', 'sessionStorage')]).toEqual(['local', 'session']);
    expect(removeStorage('k', 'sessionStorage')).toBe(true);
    expect([readStorage('k'), readStorage('k', 'sessionStorage')]).toEqual(['local', null]);
  });

  it('answers "nothing stored" / "not stored" when storage throws', () => {
    const blocked = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(blocked);
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(blocked);
    jest.spyOn(Storage.prototype, 'removeItem').mockImplementation(blocked);
    expect(readStorage('k')).toBeNull();
    expect(writeStorage('k', 'v')).toBe(false);
    expect(removeStorage('k')).toBe(false);
  });

  it('answers undefined when reading the storage property itself throws', () => {
    jest.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(safeStorage()).toBeUndefined();
    expect(writeStorage('k', 'v')).toBe(false);
    expect(hasWindow()).toBe(true);
  });
});

describe('isPlainObject', () => {
  it.each([[{}], [{ a: 1 }], [Object.create(null)]])('accepts %p', (value) => {
    expect(isPlainObject(value)).toBe(true);
  });

  it.each([
    [null],
    [undefined],
    [[]],
    [new Date()],
    [new Map()],
    ['{}'],
    [() => ({})],
    [Object.create({ inherited: 1 })],
  ])('refuses %p', (value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});

describe('originOf', () => {
  it('is the exact origin of an absolute http(s) URL without credentials, else null', () => {
    expect(originOf('https://A.example:443/x?y#z')).toBe('https://a.example');
    expect(originOf('https://user@a.example')).toBeNull();
    expect(originOf('//a.example')).toBeNull();
    expect(originOf('ftp://a.example')).toBeNull();
  });
});
