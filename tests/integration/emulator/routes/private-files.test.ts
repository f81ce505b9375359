import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * Private files (`Core.UploadPrivateFile`, `Core.CreateFileSignedUrl`): no public URL serves them;
 * a signed URL does until it expires (300 s unless `expires_in` says otherwise), and refuses a
 * changed signature, expiry or file, another app's file, and a late visitor. They survive a restart
 * with a data dir and share the uploaded files' byte budget.
 */

/** The files' byte budget, lowered by a test (undefined: as shipped). */
let mockFileBudget: number | undefined;
jest.mock('@/emulator/store/budgets', () => {
  const actual = jest.requireActual<typeof import('@/emulator/store/budgets')>('@/emulator/store/budgets');
  return {
    ...actual,
    get MAX_FILE_BYTES() {
      return mockFileBudget ?? actual.MAX_FILE_BYTES;
    },
  };
});

const APP = 'coming-soon';
const OTHER_APP = 'members-only';
const core = (app: string, endpoint: string) => `/apps/${app}/integration-endpoints/Core/${endpoint}`;

let dataDir: string;
let now = Date.parse('2026-11-25T10:00:00.000Z');
let emulator: RunningEmulator;
let api: ApiCall;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'private-files-'));
  emulator = await startTestEmulator({ dataDir, clock: () => now });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function uploadPrivate(content: string, name = 'secret.txt', app = APP, as = token): Promise<string> {
  const form = new FormData();
  form.append('file', new File([content], name, { type: 'text/plain' }));
  const { status, body } = await api<Json>('POST', core(app, 'UploadPrivateFile'), { body: form, token: as });
  expect(status).toBe(200);
  return body.file_uri as string;
}

async function sign(fileUri: unknown, extra: Json = {}, app = APP, as = token) {
  return api<Json>('POST', core(app, 'CreateFileSignedUrl'), { json: { file_uri: fileUri, ...extra }, token: as });
}

async function signedUrl(fileUri: string, extra: Json = {}): Promise<string> {
  const { status, body } = await sign(fileUri, extra);
  expect(status).toBe(200);
  return body.signed_url as string;
}

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('a private file', () => {
  it('is served through a signed URL, and by no public URL', async () => {
    const uri = await uploadPrivate('for my eyes only');
    expect(uri).toMatch(/^private\/[a-f0-9]{24}\/secret\.txt$/);
    const url = await signedUrl(uri);
    expect(url).toMatch(/\/api\/files\/private\/coming-soon\/[a-f0-9]{24}\/secret\.txt\?token=\d+\.[a-f0-9]{64}$/);
    const served = await download(url);
    expect(served).toMatchObject({ status: 200, text: 'for my eyes only' });
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    // The public route of uploaded files, with the same app, id and name.
    const [, id] = /^private\/([a-f0-9]{24})\//.exec(uri) ?? [];
    expect((await download(`${emulator.url}/api/files/${APP}/${id}/secret.txt`)).status).toBe(404);
    expect((await download(url.replace(/\?.*$/, ''))).status).toBe(401);
  });

  it('refuses a URL whose signature, expiry or file was changed', async () => {
    const url = await signedUrl(await uploadPrivate('tamper target'));
    const other = await uploadPrivate('another file');
    const otherId = /^private\/([a-f0-9]{24})\//.exec(other)?.[1] as string;
    const [, expiry, signature] = /token=(\d+)\.([a-f0-9]+)$/.exec(url) ?? [];
    const flipped = `${signature?.slice(0, -1)}${signature?.endsWith('0') ? '1' : '0'}`;
    const changed = [
      url.replace(signature as string, flipped),
      url.replace(`token=${expiry}`, `token=${Number(expiry) + 3600}`),
      url.replace(/\/[a-f0-9]{24}\/secret\.txt\?/, `/${otherId}/secret.txt?`),
      url.replace(`/private/${APP}/`, `/private/${OTHER_APP}/`),
      `${url}0`,
    ];
    for (const attempt of changed) {
      const refused = await download(attempt);
      expect({ attempt, status: refused.status }).toEqual({ attempt, status: 400 });
      expect(JSON.parse(refused.text)).toEqual({
        error: 'InvalidJWT',
        message: 'signature verification failed',
        statusCode: '400',
      });
    }
    expect((await download(url)).text).toBe('tamper target');
  });

  it('expires after 300 seconds by default, or after expires_in', async () => {
    const uri = await uploadPrivate('short-lived');
    const byDefault = await signedUrl(uri);
    const forAnHour = await signedUrl(uri, { expires_in: 3600 });
    now += 299_000;
    expect((await download(byDefault)).status).toBe(200);
    now += 2_000;
    const late = await download(byDefault);
    expect(late.status).toBe(400);
    expect(JSON.parse(late.text)).toMatchObject({ error: 'InvalidJWT', message: expect.stringMatching(/expired/) });
    expect((await download(forAnHour)).text).toBe('short-lived');
  });

  it('refuses a lifetime that is no whole number of seconds from 1 to a week', async () => {
    const uri = await uploadPrivate('lifetimes');
    for (const expires of [0, -5, 1.5, '60', 604_801]) {
      const { status, body } = await sign(uri, { expires_in: expires });
      expect({ expires, status, code: body.code }).toEqual({ expires, status: 400, code: 'invalid_expires_in' });
    }
    expect((await sign(uri, { expires_in: 604_800 })).status).toBe(200);
  });

  it('is not signed for another app, nor is a public file, a made-up URI or none at all', async () => {
    const uri = await uploadPrivate('stays in its app');
    const elsewhere = await sign(uri, {}, OTHER_APP, serviceTokenFor(OTHER_APP));
    expect(elsewhere).toMatchObject({ status: 404, body: { code: 'file_not_found' } });
    const form = new FormData();
    form.append('file', new File(['public'], 'public.txt', { type: 'text/plain' }));
    const publicUrl = (await api<Json>('POST', core(APP, 'UploadFile'), { body: form, token })).body.file_url as string;
    const publicId = /\/([a-f0-9]{24})\/public\.txt$/.exec(publicUrl)?.[1];
    for (const made of [
      `private/${publicId}/public.txt`,
      'private/aaaaaaaaaaaaaaaaaaaaaaaa/x.txt',
      uri.replace('secret', 'other'),
    ]) {
      expect((await sign(made)).body).toMatchObject({ code: 'file_not_found' });
    }
    expect(await sign(undefined)).toMatchObject({ status: 400, body: { code: 'missing_file_uri' } });
  });

  it('counts against the budget of uploaded files, with the public ones', async () => {
    const fresh = await startTestEmulator();
    const call = apiClient(fresh);
    const as = await loginToken(fresh, APP, SEEDED_ACCOUNTS.user.email);
    const send = (endpoint: string, bytes: number) => {
      const form = new FormData();
      form.append('file', new File(['x'.repeat(bytes)], 'file.txt', { type: 'text/plain' }));
      return call('POST', core(APP, endpoint), { body: form, token: as });
    };
    mockFileBudget = 25;
    try {
      expect((await send('UploadFile', 20)).status).toBe(200);
      expect(await send('UploadPrivateFile', 10)).toMatchObject({ status: 413, body: { code: 'storage_full' } });
      expect((await send('UploadPrivateFile', 5)).status).toBe(200);
      expect((await send('UploadFile', 1)).status).toBe(413);
    } finally {
      mockFileBudget = undefined;
      await fresh.close();
    }
  });

  it('survives a restart with its data dir, and so do its signed URLs', async () => {
    const uri = await uploadPrivate('kept on disk');
    const url = await signedUrl(uri, { expires_in: 600 });
    const before = emulator.url;
    await emulator.close();
    emulator = await startTestEmulator({ dataDir, clock: () => now });
    api = apiClient(emulator);
    // A new port: the same path and token at the restarted emulator's address.
    expect((await download(url.replace(before, emulator.url))).text).toBe('kept on disk');
    expect((await signedUrl(uri)).length).toBeGreaterThan(0);
  });
});
