import { ErrorCodes, isPlatformError, PlatformError } from '@/lib/sdk/core/errors';
import { errorFromResponse } from '@/lib/sdk/core/transport';

describe('PlatformError', () => {
  it('carries message, status, code, data and cause, and serialises without the cause', () => {
    const cause = new Error('low level');
    const error = new PlatformError('Not found', { status: 404, code: 'not_found', data: { id: 'x' }, cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('Base44Error');
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toEqual({
      name: 'Base44Error',
      message: 'Not found',
      status: 404,
      code: 'not_found',
      data: { id: 'x' },
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON());
  });

  it('is recognised by the guard without instanceof, e.g. from another copy of the module', () => {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const otherCopy = require('@/lib/sdk/core/errors') as typeof import('@/lib/sdk/core/errors');
      const foreign = new otherCopy.PlatformError('from elsewhere');
      expect(foreign instanceof PlatformError).toBe(false);
      expect(isPlatformError(foreign)).toBe(true);
    });
  });

  it.each([[new Error('plain')], [{ message: 'look-alike', status: 500 }], [null], ['text'], [undefined]])(
    'the guard rejects %p',
    (value) => {
      expect(isPlatformError(value)).toBe(false);
    },
  );
});

describe('errorFromResponse: message, else detail, else transport text (docs/SPEC.md section 8)', () => {
  it.each([
    ['message wins', { message: 'Bad input', detail: 'ignored' }, 'Bad input'],
    ['detail when no message', { detail: 'Field x is required' }, 'Field x is required'],
    ['detail when message is empty', { message: '', detail: 'Only detail' }, 'Only detail'],
    ['transport text without either', { code: 'x' }, 'Request failed with status code 422'],
    ['transport text for a non-string detail', { detail: [{ loc: ['x'] }] }, 'Request failed with status code 422'],
    ['transport text for a text body', 'Bad Gateway', 'Request failed with status code 422'],
    ['transport text for no body', undefined, 'Request failed with status code 422'],
  ])('%s', (_label, body, message) => {
    const error = errorFromResponse(422, body, undefined);
    expect(error.message).toBe(message);
    expect(error.status).toBe(422);
    expect(error.data).toEqual(body);
  });

  it('takes the code from the body when it is a string', () => {
    expect(errorFromResponse(403, { code: 'auth_required' }, undefined).code).toBe('auth_required');
    expect(errorFromResponse(403, { code: 7 }, undefined).code).toBeUndefined();
  });

  it('exposes the SDK codes', () => {
    expect(ErrorCodes).toMatchObject({ network: 'NETWORK_ERROR', timeout: 'TIMEOUT', aborted: 'ABORTED' });
  });
});
