import type { EmulatorOptions, RunningEmulator } from '@/emulator/core/types';
import { startTestEmulator } from '@/tests/support/emulator';

/** Small fetch wrapper for the emulator tests: JSON in and out, status and headers kept. */

export type Json = Record<string, unknown>;

export interface ApiResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  json?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** A raw body (FormData, string...) sent as is. */
  body?: BodyInit;
}

export type ApiCall = <T = Json>(method: string, path: string, options?: CallOptions) => Promise<ApiResult<T>>;

export function apiClient(emulator: RunningEmulator): ApiCall {
  return async <T = Json>(method: string, path: string, options: CallOptions = {}): Promise<ApiResult<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${emulator.url}/api${path}`, { method, headers, body });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('application/json') && text !== '' ? JSON.parse(text) : text;
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}

/** Entity path of an app. */
export function entityPath(appId: string, entity: string, suffix = ''): string {
  return `/apps/${appId}/entities/${entity}${suffix}`;
}

export function query(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return `?${search.toString()}`;
}

export interface SuiteEmulator {
  readonly emulator: RunningEmulator;
  readonly api: ApiCall;
}

/** Starts one emulator for the surrounding suite (beforeAll) and closes it after (afterAll). */
export function suiteEmulator(options: EmulatorOptions = {}): SuiteEmulator {
  let running: RunningEmulator | null = null;
  let call: ApiCall | null = null;
  beforeAll(async () => {
    running = await startTestEmulator(options);
    call = apiClient(running);
  });
  afterAll(() => running?.close());
  const started = <T>(value: T | null): T => {
    if (value === null) throw new Error('The suite emulator is not started yet (use it inside tests)');
    return value;
  };
  return {
    get emulator() {
      return started(running);
    },
    get api() {
      return started(call);
    },
  };
}
