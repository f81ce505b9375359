/**
 * What the emulator's unit tests share: the failure a call throws (kind and code, the parts clients
 * branch on), entity definitions parsed by the emulator's own loader, and callers as the auth layer
 * builds them.
 */
import type { Caller } from '@/emulator/auth/caller';
import { DomainError, type FailureKind } from '@/emulator/core/errors';
import type { Account, EntityRecord, UserRole } from '@/emulator/core/types';
import type { EntityDefinition, EntityDefinitions } from '@/emulator/entities/definition';
import { parseEntityDefinition } from '@/emulator/entities/parse';

export interface Failure {
  kind: FailureKind;
  code: string;
  message: string;
}

/** The DomainError `run` throws; fails the test when it returns or throws anything else. */
export function failureOf(run: () => unknown): Failure {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { kind: error.kind, code: error.code, message: error.message };
  }
  throw new Error('expected a DomainError, but the call returned');
}

/** The error code `run` throws (`invalid_filter`, ...). */
export const codeOf = (run: () => unknown): string => failureOf(run).code;

/** One entity file's definition, as the loader reads `base44/entities/*.jsonc`. */
export function definitionOf(schema: object): EntityDefinition {
  return parseEntityDefinition(JSON.stringify(schema), 'entity.jsonc');
}

/** Every entity name of every app resolves to this one definition. */
export function definitionsOf(schema: object): EntityDefinitions {
  const definition = definitionOf(schema);
  return { lookup: () => ({ kind: 'defined', definition }) };
}

/** A signed-in account with its `User` record in the app (its role and custom fields). */
export function userCaller(email: string, role: UserRole = 'user', data: Record<string, unknown> = {}): Caller {
  const account = { id: `id-${email}`, email } as Account;
  const member = { id: account.id, email, role, ...data } as unknown as EntityRecord;
  return { kind: 'user', account, member, role, sessionId: null };
}

export const SERVICE: Caller = { kind: 'service' };
export const ANONYMOUS: Caller = { kind: 'anonymous' };
