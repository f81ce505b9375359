/**
 * Rows about accounts and tokens: registration with an e-mailed code, signing in, and the tokens
 * the entity routes accept. Each row registers addresses of its own, so the rows stay independent.
 */
import { q, type Row, type Seen } from './rows';

const register = (email: string, password = 'a-good-password-1') => ({
  actor: 'anonymous' as const,
  method: 'POST' as const,
  path: '/auth/register',
  body: { email, password },
});
const verify = (email: string, code = '{code}') => ({
  actor: 'anonymous' as const,
  method: 'POST' as const,
  path: '/auth/verify-otp',
  body: { email, otp_code: code },
});
const login = (email: string, password = 'a-good-password-1') => ({
  actor: 'anonymous' as const,
  method: 'POST' as const,
  path: '/auth/login',
  body: { email, password },
});

/** The status and the `code` of our error answers. */
const codes = (seen: Seen[]) => seen.map(({ status, body }) => [status, (body as { code?: string }).code]);

export const AUTH_ROWS: Row[] = [
  {
    name: 'register, then confirm the e-mailed code: the answers the platform gives',
    steps: [register('reg-flow@example.com'), { codeFor: 'reg-flow@example.com' }, verify('reg-flow@example.com')],
  },
  {
    name: 'sign in: the token and the user',
    steps: [login('second@example.com', 'second-password-1')],
    deviation: {
      id: 'login-answer-user',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 200, body: { access_token: '<token>', success: true, user: {} } }]);
        expect(ours).toEqual([
          {
            status: 200,
            body: {
              access_token: '<token>',
              success: true,
              user: expect.objectContaining({ email: 'second@example.com', role: 'user', is_verified: true }),
            },
          },
        ]);
      },
    },
  },
  {
    name: 'a wrong code, the right one, and the right one again',
    steps: [
      { ...register('reg-codes@example.com'), setup: true },
      { codeFor: 'reg-codes@example.com' },
      // Never the code just sent: not even digits.
      verify('reg-codes@example.com', 'wrong'),
      verify('reg-codes@example.com'),
      verify('reg-codes@example.com'),
    ],
    deviation: {
      id: 'otp-errors',
      differs(vendor, ours) {
        expect(vendor.map((seen) => seen.status)).toEqual([500, 200, 500]);
        expect(vendor[2]?.body).toMatchObject({ error_type: 'ObjectNotFoundError' });
        expect(codes(ours)).toEqual([
          [400, 'invalid_otp'],
          [200, undefined],
          [400, 'otp_not_found'],
        ]);
        expect(ours[1]).toEqual(vendor[1]);
      },
    },
  },
  {
    name: 'sign in before the code is confirmed',
    steps: [{ ...register('reg-early@example.com'), setup: true }, login('reg-early@example.com')],
    deviation: {
      id: 'login-unverified-403',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 401, body: { error: 'Unauthorized' } }]);
        expect(codes(ours)).toEqual([[403, 'email_not_verified']]);
      },
    },
  },
  {
    name: 'sign in with a wrong password, and with an unknown address',
    steps: [login('second@example.com', 'not-the-password'), login('nobody-here@example.com')],
    deviation: {
      id: 'login-wrong-password-401',
      differs(vendor, ours) {
        expect(vendor).toEqual([
          { status: 400, body: expect.objectContaining({ message: 'Invalid email or password' }) },
          { status: 401, body: { error: 'Unauthorized' } },
        ]);
        const refused = { status: 401, body: expect.objectContaining({ message: 'Invalid email or password' }) };
        expect(ours).toEqual([refused, refused]);
      },
    },
  },
  {
    name: 'register a verified address again',
    steps: [register('second@example.com')],
    deviation: {
      id: 'errors-carry-a-message',
      differs(vendor, ours) {
        const message = 'A user with this email already exists';
        expect(vendor).toEqual([
          { status: 400, body: expect.objectContaining({ error_type: 'HTTPException', message }) },
        ]);
        expect(ours).toEqual([{ status: 400, body: expect.objectContaining({ code: 'user_exists', message }) }]);
      },
    },
  },
  {
    name: 'register an address that awaits its code again: at once, and with another password',
    steps: [
      { ...register('reg-twice@example.com'), setup: true },
      register('reg-twice@example.com'),
      register('reg-twice@example.com', 'another-password-2'),
    ],
    deviation: {
      id: 'pending-registration',
      differs(vendor, ours) {
        // The vendor sends a new code each time and keeps the first password, saying nothing of it.
        expect(vendor.map((seen) => seen.status)).toEqual([200, 200]);
        expect(codes(ours)).toEqual([
          [429, 'otp_throttled'],
          [409, 'verification_pending'],
        ]);
      },
    },
  },
  {
    name: 'a token that is no token, on an entity route and on User/me',
    steps: [
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: 'none' })}`,
        headers: { Authorization: 'Bearer garbage' },
      },
      { actor: 'user', method: 'GET', path: '/entities/User/me', headers: { Authorization: 'Bearer garbage' } },
    ],
    deviation: {
      id: 'token-errors-401',
      differs(vendor, ours) {
        // The vendor reads the list as a visitor's; only User/me refuses the token.
        expect(vendor).toEqual([
          { status: 200, body: [] },
          { status: 401, body: { error: 'Unauthorized' } },
        ]);
        expect(codes(ours)).toEqual([
          [401, 'invalid_token'],
          [401, 'invalid_token'],
        ]);
      },
    },
  },
  {
    name: 'the Bearer scheme in other spellings',
    steps: [
      { actor: 'user', method: 'GET', path: '/entities/User/me', headers: { Authorization: 'bearer {token}' } },
      { actor: 'user', method: 'GET', path: '/entities/User/me', headers: { Authorization: 'Bearer  {token}' } },
      { actor: 'user', method: 'GET', path: '/entities/User/me', headers: { Authorization: 'Token {token}' } },
    ],
    deviation: {
      id: 'bearer-scheme-any-case',
      differs(vendor, ours) {
        const unauthorized = { status: 401, body: { error: 'Unauthorized' } };
        expect(vendor).toEqual([unauthorized, unauthorized, unauthorized]);
        const me = { status: 200, body: expect.objectContaining({ email: 'second@example.com' }) };
        expect(ours.slice(0, 2)).toEqual([me, me]);
        expect(codes(ours.slice(2))).toEqual([[401, 'invalid_token']]);
      },
    },
  },
];
