import type { RunningEmulator } from '@/emulator/core/types';
import { startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type ApiResult, type Json } from '../api';

/**
 * A six-digit registration code must not be guessable: wrong guesses are counted per address over an
 * hour, and neither a resent code nor a second registration resets the count; codes are sent at
 * most once a minute; and a second registration of an address awaiting verification cannot replace
 * the password the first one chose (else whoever re-registers owns the account the owner verifies).
 */

const APP = 'coming-soon';
const MINUTE = 60_000;
let now = Date.parse('2030-01-01T00:00:00Z');
let emulator: RunningEmulator;
let api: ApiCall;

beforeEach(async () => {
  emulator = await startTestEmulator({ clock: () => now });
  api = apiClient(emulator);
});
afterEach(() => emulator.close());

const auth = (action: string, json: Json): Promise<ApiResult<Json>> =>
  api('POST', `/apps/${APP}/auth/${action}`, { json });

const mailsTo = (email: string) => emulator.outbox().filter((mail) => mail.to === email);
const codeFor = (email: string): string => /\b(\d{6})\b/.exec(mailsTo(email).pop()?.body ?? '')?.[1] ?? '';

/** A guess that is certainly wrong: the attacker does not know the code; the test must not hit it. */
function wrongGuess(email: string, index: number): string {
  const guess = String(index).padStart(6, '0');
  return guess === codeFor(email) ? String(index + 500_000).padStart(6, '0') : guess;
}

describe('guessing a registration code', () => {
  it('allows at most 15 wrong guesses an hour per address, whatever is resent in between', async () => {
    const email = 'victim@example.com';
    expect((await auth('register', { email, password: 'victim-password' })).status).toBe(200);
    let judged = 0;
    let refused = 0;
    for (let guess = 0; guess < 60; guess += 1) {
      const result = await auth('verify-otp', { email, otp_code: wrongGuess(email, guess) });
      if (result.body.code === 'invalid_otp') judged += 1;
      else {
        refused += 1;
        expect(result.status).toBe(result.body.code === 'otp_not_found' ? 400 : 429);
      }
      if (guess % 4 === 3) {
        // What the attack did: ask for a new code to reset the attempt counter.
        now += MINUTE + 1;
        expect((await auth('resend-otp', { email })).status).toBe(200);
      }
    }
    expect(judged).toBeLessThanOrEqual(15);
    expect(refused).toBeGreaterThanOrEqual(45);
    // Even the right code is refused while the address is locked: the lock is what stops guessing.
    const locked = await auth('verify-otp', { email, otp_code: codeFor(email) });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'too_many_attempts' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('lets the owner verify with a fresh code once the hour is over', async () => {
    const email = 'patient@example.com';
    await auth('register', { email, password: 'patient-password' });
    for (let guess = 0; guess < 20; guess += 1) {
      await auth('verify-otp', { email, otp_code: wrongGuess(email, guess) });
      if (guess % 5 === 4) {
        now += MINUTE + 1;
        await auth('resend-otp', { email });
      }
    }
    now += 61 * MINUTE;
    expect((await auth('resend-otp', { email })).status).toBe(200);
    const verified = await auth('verify-otp', { email, otp_code: codeFor(email) });
    expect(verified.status).toBe(200);
  });

  it('does not reset the count by registering the address again', async () => {
    const email = 'again@example.com';
    await auth('register', { email, password: 'again-password' });
    let judged = 0;
    for (let guess = 0; guess < 40; guess += 1) {
      const result = await auth('verify-otp', { email, otp_code: wrongGuess(email, guess) });
      if (result.body.code === 'invalid_otp') judged += 1;
      if (guess % 4 === 3) {
        now += MINUTE + 1;
        await auth('register', { email, password: 'again-password' });
      }
    }
    expect(judged).toBeLessThanOrEqual(15);
  });
});

describe('sending codes', () => {
  it('sends at most one code a minute, and resend-otp answers the same either way', async () => {
    const email = 'flood@example.com';
    await auth('register', { email, password: 'flood-password' });
    const answers = new Set<string>();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const result = await auth('resend-otp', { email });
      expect(result.status).toBe(200);
      answers.add(JSON.stringify(result.body));
    }
    expect(answers.size).toBe(1);
    expect(mailsTo(email)).toHaveLength(1);
    now += MINUTE + 1;
    await auth('resend-otp', { email });
    expect(mailsTo(email)).toHaveLength(2);
  });

  it('sends at most five codes an hour to one address', async () => {
    const email = 'many@example.com';
    await auth('register', { email, password: 'many-password' });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      now += MINUTE + 1;
      await auth('resend-otp', { email });
    }
    expect(mailsTo(email)).toHaveLength(5);
  });

  it('answers a too-early second registration with 429 and Retry-After', async () => {
    const email = 'twice@example.com';
    await auth('register', { email, password: 'twice-password' });
    const early = await auth('register', { email, password: 'twice-password' });
    expect(early.status).toBe(429);
    expect(early.body).toMatchObject({ code: 'otp_throttled' });
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('registering an address that awaits verification', () => {
  it("keeps the first registration's password: the owner's verification never hands the account to the second", async () => {
    const email = 'owner@example.com';
    expect((await auth('register', { email, password: 'owner-password' })).status).toBe(200);
    now += MINUTE + 1;
    const hijack = await auth('register', { email, password: 'attacker-password', full_name: 'Attacker' });
    expect(hijack.status).toBe(409);
    expect(hijack.body).toMatchObject({ code: 'verification_pending' });
    expect(mailsTo(email)).toHaveLength(1);

    const verified = await auth('verify-otp', { email, otp_code: codeFor(email) });
    expect(verified.status).toBe(200);
    expect((await auth('login', { email, password: 'attacker-password' })).status).toBe(401);
    const owner = await auth('login', { email, password: 'owner-password' });
    expect(owner.status).toBe(200);
    expect(owner.body.user).not.toMatchObject({ full_name: 'Attacker' });
  });

  it('sends a new code to a second registration with the same password (after a minute)', async () => {
    const email = 'forgetful-owner@example.com';
    await auth('register', { email, password: 'owner-password' });
    now += MINUTE + 1;
    expect((await auth('register', { email, password: 'owner-password' })).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(2);
    expect((await auth('verify-otp', { email, otp_code: codeFor(email) })).status).toBe(200);
  });
});
