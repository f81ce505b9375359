import { TokenSigner } from '@/emulator/credentials/tokens';

/**
 * An access token has exactly one spelling: base64url without padding, nothing after the signature,
 * and the canonical encoding of each part (the unused low bits of the last character are zero).
 * Any other spelling of a valid token is refused, so a token cannot be "changed" and still pass
 * (a revocation list, a log match or a cache keyed by the token string would be fooled otherwise).
 */

const now = Date.parse('2030-01-01T00:00:00Z');
const signer = new TokenSigner('a-test-secret-of-enough-length', () => now);
const token = signer.sign('coming-soon', 'user-user', 0, 'session-id');
const [header, payload, signature] = token.split('.') as [string, string, string];

/**
 * The signature is 32 bytes in 43 characters: the last character's two low bits are unused, so
 * flipping its lowest bit gives another spelling of the same bytes.
 */
function sameBytesOtherLastChar(part: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const spelled = part.slice(0, -1) + (alphabet[alphabet.indexOf(part.slice(-1)) ^ 1] as string);
  expect(Buffer.from(spelled, 'base64url').equals(Buffer.from(part, 'base64url'))).toBe(true);
  return spelled;
}

it('accepts the token as signed', () => {
  expect(signer.verify(token)).toMatchObject({ sub: 'user-user', app_id: 'coming-soon', sid: 'session-id' });
});

it.each([
  ['padding after the signature', `${token}=`],
  ['two padding characters', `${token}==`],
  ['a trailing character', `${token}A`],
  ['a trailing dot', `${token}.`],
  ['trailing whitespace', `${token} `],
  ['a standard-base64 signature', `${header}.${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}+`],
  ['a signature with unused bits set', `${header}.${payload}.${sameBytesOtherLastChar(signature)}`],
  ['a character outside base64url in the signature', `${header}.${payload}.${signature.slice(0, -1)}*`],
])('refuses %s', (_label, variant) => {
  expect(signer.verify(variant)).toBeNull();
});

it('refuses padding inside the payload or header part', () => {
  expect(signer.verify(`${header}.${payload}=.${signature}`)).toBeNull();
  expect(signer.verify(`${header}=.${payload}.${signature}`)).toBeNull();
});
