import { randomInt } from 'node:crypto';

import { invalidInput, tooManyRequests, type DomainError } from '../core/errors';
import type { AppConfig, OtpState } from '../core/types';
import { secretsEqual, sha256Hex } from '../credentials/tokens';
import type { EmulatorContext } from '../instance/context';
import type { StoreChange } from '../store/store';

/**
 * Registration codes (six digits, e-mailed) and the budget that keeps them from being guessed.
 * The budget belongs to the address, not to a code, so neither `resend-otp` nor a second
 * registration resets it:
 *
 * - a code takes at most 5 wrong guesses, then it is used up (a new one must be requested);
 * - an address takes at most 15 wrong guesses an hour, then every verification (the right code
 *   too) is 429 until the hour is over: 15 guesses in 1,000,000 an hour;
 * - a code is sent at most once a minute and five times an hour per address.
 */

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_WINDOW_MS = 60 * 60 * 1000;
export const OTP_MAX_FAILURES_PER_WINDOW = 15;
export const OTP_MAX_CODES_PER_WINDOW = 5;
export const OTP_RESEND_INTERVAL_MS = 60 * 1000;

export function pendingOtp(context: EmulatorContext, email: string): OtpState | undefined {
  return context.store.otp(email);
}

interface Budget {
  /** When the current hour began (ms). */
  start: number;
  failures: number;
  codes: number;
}

/** The address's budget for the current hour: a new hour once the last is over. */
function currentWindow(state: OtpState, now: number): Budget {
  const start = state.window_start ?? -Infinity;
  if (now - start >= OTP_WINDOW_MS) return { start: now, failures: 0, codes: 0 };
  return { start, failures: state.window_failures ?? 0, codes: state.window_codes ?? 0 };
}

/** How long (ms) until a new code may be sent to the address; 0 = now. */
export function otpWaitMs(context: EmulatorContext, email: string): number {
  const existing = pendingOtp(context, email);
  if (!existing) return 0;
  const now = context.now();
  const budget = currentWindow(existing, now);
  const interval = (existing.sent_at ?? -Infinity) + OTP_RESEND_INTERVAL_MS - now;
  const window = budget.codes >= OTP_MAX_CODES_PER_WINDOW ? budget.start + OTP_WINDOW_MS - now : 0;
  return Math.max(0, interval, window);
}

/** Stages a new code (replacing the previous one) and its mail into `change`; check `otpWaitMs` first. */
export function issueOtp(context: EmulatorContext, change: StoreChange, app: AppConfig, email: string): void {
  const now = context.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const budget = currentWindow(
    pendingOtp(context, email) ?? { code_hash: null, expires_at: 0, attempts: 0, app_id: app.id },
    now,
  );
  change.recordOtp(email, {
    code_hash: sha256Hex(code),
    expires_at: now + OTP_TTL_MS,
    attempts: 0,
    app_id: app.id,
    sent_at: now,
    window_start: budget.start,
    window_failures: budget.failures,
    window_codes: budget.codes + 1,
  });
  context.sendMail(change, app.id, {
    to: email,
    subject: `Your ${app.name} verification code`,
    body: `Your verification code for ${app.name} is ${code}. It expires in ${OTP_TTL_MS / 60_000} minutes.`,
  });
}

/** Asked too often, with how long to wait (the wire's Retry-After). */
export function tooSoon(message: string, code: string, waitMs: number): DomainError {
  return tooManyRequests(message, code, waitMs);
}

function noPendingCode(): DomainError {
  return invalidInput('There is no pending verification code for this e-mail address', 'otp_not_found');
}

/**
 * Judges a presented code for the address. A right code is consumed; a wrong guess (or an expired
 * code) is counted. Either outcome is staged into `change`, which the caller commits before it
 * answers; returns the platform's error to answer with, or null when the code was right.
 */
export function judgeOtp(
  context: EmulatorContext,
  change: StoreChange,
  app: AppConfig,
  email: string,
  code: string,
): DomainError | null {
  const state = pendingOtp(context, email);
  if (!state || state.app_id !== app.id) return noPendingCode();
  const now = context.now();
  const budget = currentWindow(state, now);
  const lockedFor = budget.start + OTP_WINDOW_MS - now;
  if (budget.failures >= OTP_MAX_FAILURES_PER_WINDOW)
    return tooSoon('Too many wrong codes for this address; try again later', 'too_many_attempts', lockedFor);
  if (state.code_hash === null) return noPendingCode();
  const window = { window_start: budget.start, window_failures: budget.failures, window_codes: budget.codes };
  if (state.expires_at <= now) {
    change.recordOtp(email, { ...state, ...window, code_hash: null });
    return invalidInput('The verification code has expired; request a new one', 'otp_expired');
  }
  if (secretsEqual(sha256Hex(code.trim()), state.code_hash)) {
    change.dropOtp(email);
    return null;
  }
  const attempts = state.attempts + 1;
  const failures = budget.failures + 1;
  const usedUp = failures >= OTP_MAX_FAILURES_PER_WINDOW || attempts >= OTP_MAX_ATTEMPTS;
  change.recordOtp(email, {
    ...state,
    ...window,
    attempts,
    window_failures: failures,
    code_hash: usedUp ? null : state.code_hash,
  });
  if (failures >= OTP_MAX_FAILURES_PER_WINDOW)
    return tooSoon('Too many wrong codes for this address; try again later', 'too_many_attempts', lockedFor);
  if (attempts >= OTP_MAX_ATTEMPTS)
    return tooManyRequests('Too many wrong codes; request a new one', 'too_many_attempts');
  return invalidInput('The verification code is not correct', 'invalid_otp');
}
