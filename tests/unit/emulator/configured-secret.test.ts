/**
 * The service token's digest is taken once and kept by the token itself: a changed token must be
 * compared as the new one, never as a digest kept from before.
 */
import { equalsConfiguredSecret } from '@/emulator/credentials/tokens';

it('accepts the configured secret and refuses anything else, of any length', () => {
  expect(equalsConfiguredSecret('service-token-a', 'service-token-a')).toBe(true);
  expect(equalsConfiguredSecret('service-token-b', 'service-token-a')).toBe(false);
  expect(equalsConfiguredSecret('service-token-', 'service-token-a')).toBe(false);
  expect(equalsConfiguredSecret('', 'service-token-a')).toBe(false);
});

it('compares with the secret configured now, after it was compared with another one', () => {
  expect(equalsConfiguredSecret('old-token', 'old-token')).toBe(true);
  // The configuration changed: the old token no longer passes, the new one does.
  expect(equalsConfiguredSecret('old-token', 'new-token')).toBe(false);
  expect(equalsConfiguredSecret('new-token', 'new-token')).toBe(true);
  expect(equalsConfiguredSecret('new-token', 'old-token')).toBe(false);
});

it('still compares correctly once more secrets were configured than it keeps digests of', () => {
  for (let at = 0; at < 600; at += 1) expect(equalsConfiguredSecret(`token-${at}`, `token-${at}`)).toBe(true);
  expect(equalsConfiguredSecret('token-1', 'token-2')).toBe(false);
  expect(equalsConfiguredSecret('token-599', 'token-599')).toBe(true);
});
