/**
 * Integrations and backend functions against the emulator: JSON parameters, multipart uploads with a
 * File and with a caller-built FormData, and the errors the server reports.
 */
import { isPlatformError } from '@/lib/sdk/core/errors';
import { SEEDED_ACCOUNTS } from '@/tests/support/emulator';

import {
  clientFor,
  rejectionOf,
  serviceClient,
  signedInClient,
  startEmulatorForSuite,
  type TestClient,
} from './harness';

const platform = startEmulatorForSuite();
let user: TestClient;
beforeAll(async () => {
  user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
});

interface HelloResult {
  message: string;
  user: { email: string } | null;
  service_role: boolean;
  payload: Record<string, unknown>;
  files: { field: string; name: string; size: number; text: string }[];
}

describe('integrations', () => {
  it('Core.UploadFile sends a File as multipart; the returned URL serves the same bytes', async () => {
    const file = new File(['hello upload'], 'greeting.txt', { type: 'text/plain' });
    const { file_url: fileUrl } = await user.integrations.Core.UploadFile({ file });
    expect(fileUrl).toMatch(/\/greeting\.txt$/);
    const download = await fetch(fileUrl);
    expect(await download.text()).toBe('hello upload');
  });

  it('Core.UploadPrivateFile stores a file only a signed URL from Core.CreateFileSignedUrl serves', async () => {
    const file = new File(['private upload'], 'private.txt', { type: 'text/plain' });
    const { file_uri: fileUri } = await user.integrations.Core.UploadPrivateFile({ file });
    expect(fileUri).toMatch(/^private\/[a-f0-9]{24}\/private\.txt$/);
    const { signed_url: signedUrl } = await user.integrations.Core.CreateFileSignedUrl({
      file_uri: fileUri,
      expires_in: 60,
    });
    expect(await (await fetch(signedUrl)).text()).toBe('private upload');
    const missing = await rejectionOf(user.integrations.Core.CreateFileSignedUrl({ file_uri: 'private/none' }));
    expect(isPlatformError(missing) && [missing.status, missing.code]).toEqual([404, 'file_not_found']);
  });

  it('Core.UploadFile passes a caller-built FormData through intact', async () => {
    const form = new FormData();
    form.append('file', new File(['form bytes'], 'form.txt', { type: 'text/plain' }));
    const { file_url: fileUrl } = await user.integrations.Core.UploadFile(form);
    expect(await (await fetch(fileUrl)).text()).toBe('form bytes');
  });

  it('Core.SendEmail posts JSON and the message lands in the outbox', async () => {
    await user.integrations.Core.SendEmail({
      to: 'friend@example.com',
      subject: 'Hi',
      body: 'Soon!',
      from_name: 'Site',
    });
    const mail = platform.emulator.outbox().find((sent) => sent.to === 'friend@example.com');
    expect(mail).toMatchObject({ subject: 'Hi', body: 'Soon!', from_name: 'Site' });
  });

  it('an endpoint the emulator cannot run answers 501; message wins over detail', async () => {
    const error = await rejectionOf(user.integrations.Core.InvokeLLM({ prompt: 'hello' }));
    expect(isPlatformError(error) && [error.status, error.code, error.message]).toEqual([
      501,
      'not_available_locally',
      'The integration Core.InvokeLLM is not available in the local emulator',
    ]);
    expect(isPlatformError(error) && error.data).toMatchObject({ detail: expect.stringContaining('hosted platform') });
  });

  it('installable packages reach their own path (the emulator answers 501 for them)', async () => {
    const error = await rejectionOf(user.integration('slack', 'PostMessage')({ text: 'hi' }));
    expect(isPlatformError(error) && error.message).toBe(
      'The installable integration slack.PostMessage is not available in the local emulator',
    );
  });
});

describe('functions', () => {
  it('invoke sends named parameters and resolves with data and status', async () => {
    const response = await user.functions.invoke<HelloResult>('hello', { name: 'Ada', options: { loud: true } });
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({
      message: 'Hello, Ada!',
      user: { email: SEEDED_ACCOUNTS.user.email },
      service_role: false,
      payload: { name: 'Ada', options: { loud: true } },
    });
  });

  it('an object holding a File goes as multipart: files keep their names, other values arrive as text', async () => {
    const { data } = await user.functions.invoke<HelloResult>('hello', {
      name: 'Files',
      meta: { kind: 'report' },
      count: 3,
      skipped: undefined,
      report: new File(['a,b\n1,2\n'], 'report.csv', { type: 'text/csv' }),
    });
    expect(data.payload).toEqual({ name: 'Files', meta: '{"kind":"report"}', count: '3' });
    expect(data.files).toEqual([{ field: 'report', name: 'report.csv', size: 8, text: 'a,b\n1,2\n' }]);
  });

  it('a caller-built FormData is sent as is', async () => {
    const form = new FormData();
    form.append('name', 'Form');
    form.append('attachment', new File(['xyz'], 'x.bin'));
    const { data } = await user.functions.invoke<HelloResult>('hello', form);
    expect(data.payload).toEqual({ name: 'Form' });
    expect(data.files).toEqual([{ field: 'attachment', name: 'x.bin', size: 3, text: 'xyz' }]);
  });

  it('works for visitors on a public app and reports the service role', async () => {
    expect((await clientFor(platform).functions.invoke<HelloResult>('hello')).data.user).toBeNull();
    const service = serviceClient(platform);
    expect((await service.asServiceRole.functions.invoke<HelloResult>('hello', {})).data.service_role).toBe(true);
  });

  it('a missing function is a 404 with the server message', async () => {
    const error = await rejectionOf(user.functions.invoke('no-such-function', {}));
    expect(isPlatformError(error) && [error.status, error.message]).toEqual([
      404,
      'Function no-such-function not found',
    ]);
  });
});
