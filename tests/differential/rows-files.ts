/**
 * Rows about files: `Core.UploadFile` and the public URL it answers; `Core.UploadPrivateFile`,
 * `Core.CreateFileSignedUrl` and the signed URL. URLs are fetched as a browser would (no app
 * header, no token).
 */
import type { Row, Seen, Step } from './rows';

const UPLOAD_FILE = '/integration-endpoints/Core/UploadFile';
const UPLOAD_PRIVATE_FILE = '/integration-endpoints/Core/UploadPrivateFile';
const CREATE_SIGNED_URL = '/integration-endpoints/Core/CreateFileSignedUrl';
const INVALID_SIGNATURE = { error: 'InvalidJWT', message: 'signature verification failed', statusCode: '400' };
const FILE_HEADERS = ['content-type', 'content-disposition', 'x-content-type-options'];

const upload = (name: string, type: string, content: string): Step => ({
  actor: 'user',
  method: 'POST',
  path: UPLOAD_FILE,
  upload: { name, type, content },
  keep: { url: 'file_url' },
});
const download: Step = { actor: 'anonymous', method: 'GET', path: '{url}', expose: FILE_HEADERS };

const uploadPrivate: Step = {
  actor: 'user',
  method: 'POST',
  path: UPLOAD_PRIVATE_FILE,
  upload: { name: 'private.txt', type: 'text/plain', content: 'for signed eyes only' },
  keep: { uri: 'file_uri' },
};
const signPrivate = (extra: object = {}): Step => ({
  actor: 'user',
  method: 'POST',
  path: CREATE_SIGNED_URL,
  body: { file_uri: '{uri}', ...extra },
  keep: { signed: 'signed_url' },
});

const fileUrlOf = (seen: Seen | undefined) => (seen?.body as { file_url: string }).file_url;
const fieldOf = (seen: Seen | undefined, field: string) => (seen?.body as Record<string, string>)[field];
const served = (seen: Seen | undefined) => seen?.body as { headers: Record<string, string | null>; body: unknown };

export const FILE_ROWS: Row[] = [
  {
    name: 'upload a text file and download it from its public URL',
    steps: [upload('notes.txt', 'text/plain', 'hello from a file'), download],
    deviation: {
      id: 'file-urls',
      differs(vendor, ours) {
        expect(fileUrlOf(vendor[0])).toMatch(/^<backend>\/media\/[0-9a-f-]{36}\.txt$/);
        expect(fileUrlOf(ours[0])).toMatch(/^<backend>\/api\/files\/differential-app\/[0-9a-f]{24}\/notes\.txt$/);
        expect(served(vendor[1])).toEqual({
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            'content-disposition': null,
            'x-content-type-options': null,
          },
          body: 'hello from a file',
        });
        expect(served(ours[1])).toEqual({
          headers: {
            'content-type': 'text/plain',
            'content-disposition': "inline; filename*=UTF-8''notes.txt",
            'x-content-type-options': 'nosniff',
          },
          body: 'hello from a file',
        });
      },
    },
  },
  {
    name: 'an uploaded HTML page, opened from its URL',
    steps: [upload('page.html', 'text/html', '<script>alert(document.cookie)</script>'), download],
    deviation: {
      id: 'uploaded-files-sandboxed',
      differs(vendor, ours) {
        expect(vendor[1]?.status).toBe(200);
        expect(served(vendor[1])?.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(served(ours[1])).toEqual({
          headers: {
            'content-type': 'application/octet-stream',
            'content-disposition': "attachment; filename*=UTF-8''page.html",
            'x-content-type-options': 'nosniff',
          },
          body: '<script>alert(document.cookie)</script>',
        });
      },
    },
  },
  {
    name: 'a private file: upload, sign, download, and a changed signature',
    steps: [
      uploadPrivate,
      signPrivate(),
      { actor: 'anonymous', method: 'GET', path: '{signed}', expose: ['content-type'] },
      { actor: 'anonymous', method: 'GET', path: '{signed}0' },
    ],
    deviation: {
      id: 'private-file-urls',
      differs(vendor, ours) {
        expect(fieldOf(vendor[0], 'file_uri')).toMatch(/^[0-9a-f-]{36}\.txt$/);
        expect(fieldOf(ours[0], 'file_uri')).toMatch(/^private\/[0-9a-f]{24}\/private\.txt$/);
        expect(fieldOf(vendor[1], 'signed_url')).toMatch(
          /^<backend>\/media\/private\/[0-9a-f-]{36}\.txt\?token=[0-9a-f]{64}$/,
        );
        expect(fieldOf(ours[1], 'signed_url')).toMatch(
          /^<backend>\/api\/files\/private\/differential-app\/[0-9a-f]{24}\/private\.txt\?token=\d+\.[0-9a-f]{64}$/,
        );
        expect(served(vendor[2])).toEqual({
          headers: { 'content-type': 'text/plain; charset=utf-8' },
          body: 'for signed eyes only',
        });
        expect(served(ours[2])).toEqual({ headers: { 'content-type': 'text/plain' }, body: 'for signed eyes only' });
        // A changed signature is refused alike, in the body of the platform's file storage.
        expect(ours[3]).toEqual({ status: 400, body: INVALID_SIGNATURE });
        expect(vendor[3]).toEqual(ours[3]);
      },
    },
  },
  {
    name: 'a signed URL after its expires_in has passed',
    steps: [
      uploadPrivate,
      signPrivate({ expires_in: 1 }),
      { waitMs: 2_100 },
      { actor: 'anonymous', method: 'GET', path: '{signed}' },
    ],
    deviation: {
      id: 'signed-url-expiry',
      differs(vendor, ours) {
        expect(vendor[2]).toEqual({ status: 200, body: 'for signed eyes only' });
        expect(ours[2]).toEqual({
          status: 400,
          body: { error: 'InvalidJWT', message: expect.stringMatching(/expired/), statusCode: '400' },
        });
      },
    },
  },
  {
    name: 'a signed URL for a file that does not exist, and for no file at all',
    steps: [
      { actor: 'user', method: 'POST', path: CREATE_SIGNED_URL, body: { file_uri: 'private/nothing-here.txt' } },
      { actor: 'user', method: 'POST', path: CREATE_SIGNED_URL, body: {} },
    ],
    deviation: {
      id: 'signed-url-unknown-file',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({
          status: 200,
          body: { signed_url: expect.stringContaining('/media/private/private/nothing-here.txt?token=') },
        });
        expect(ours[0]).toEqual({ status: 404, body: expect.objectContaining({ code: 'file_not_found' }) });
        expect(vendor[1]).toEqual({ status: 400, body: { error: 'file_uri is required' } });
        expect(ours[1]).toEqual({
          status: 400,
          body: expect.objectContaining({ code: 'missing_file_uri', message: 'file_uri is required' }),
        });
      },
    },
  },
];
