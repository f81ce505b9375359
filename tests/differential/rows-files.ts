/**
 * Rows about files: `Core.UploadFile` and the public URL it answers, fetched as a browser would
 * (no app header, no token).
 */
import type { Row, Seen, Step } from './rows';

const UPLOAD_FILE = '/integration-endpoints/Core/UploadFile';
const FILE_HEADERS = ['content-type', 'content-disposition', 'x-content-type-options'];

const upload = (name: string, type: string, content: string): Step => ({
  actor: 'user',
  method: 'POST',
  path: UPLOAD_FILE,
  upload: { name, type, content },
  keep: { url: 'file_url' },
});
const download: Step = { actor: 'anonymous', method: 'GET', path: '{url}', expose: FILE_HEADERS };

const fileUrlOf = (seen: Seen | undefined) => (seen?.body as { file_url: string }).file_url;
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
];
