import { invalidInput, notFound } from '../core/errors';
import type { AppConfig, StoredFile } from '../core/types';
import { DEFAULT_SIGNED_URL_SECONDS, MAX_SIGNED_URL_SECONDS } from '../credentials/file-signatures';
import type { NamedPayload } from '../http/body';
import { jsonReply, type Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { newId } from '../store/store';

/**
 * Uploaded files. Public ones (`Core.UploadFile`) are served at a URL with an unguessable id, like
 * the platform's public file URLs. Private ones (`Core.UploadPrivateFile`) have no public URL: the
 * upload answers a `file_uri`, and `Core.CreateFileSignedUrl` turns it into a URL that serves the
 * file until it expires (credentials/file-signatures.ts). The files come from users and share the
 * emulator's origin with the login page, so they are served sandboxed, never sniffed, and
 * downloaded instead of rendered unless they are plainly inert.
 */

const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|text\/plain|application\/pdf|audio\/\w+|video\/\w+)$/;
const PRIVATE_URI = /^private\/([a-f0-9]{24})\/([^/]+)$/;

/** File names end up in URLs and headers: keep a plain base name. */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^\w.\- ]+/g, '_')
    .trim()
    .slice(0, 200);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

export function fileUrl(context: EmulatorContext, file: StoredFile): string {
  return `${context.baseUrl()}/api/files/${encodeURIComponent(file.app_id)}/${file.id}/${encodeURIComponent(file.name)}`;
}

/**
 * Stores the multipart part `file` of an upload, public or private; both count against the same
 * budget of uploaded files. Bytes first, metadata second: a crash in between leaves an orphan blob,
 * never a record of bytes that are not there.
 */
export async function storeUpload(
  context: EmulatorContext,
  app: AppConfig,
  createdBy: string | null,
  payload: NamedPayload,
  visibility: 'public' | 'private',
): Promise<StoredFile> {
  const upload = payload.files.file;
  if (!upload) throw invalidInput('The upload needs a multipart file part named "file"', 'missing_file');
  const bytes = Buffer.from(await upload.arrayBuffer());
  context.store.requireFileRoom(bytes.length);
  const stored: StoredFile = {
    id: newId(),
    app_id: app.id,
    name: safeFileName(upload.name),
    type: upload.type || 'application/octet-stream',
    size: bytes.length,
    created_by: createdBy,
    created_date: context.nowIso(),
    ...(visibility === 'private' ? { private: true as const } : {}),
  };
  await context.blobs.put(stored.id, bytes);
  await context.store.write((change) => change.addFile(stored));
  return stored;
}

/** The `file_uri` of a private file: where it is, not how to read it. */
export function privateFileUri(file: StoredFile): string {
  return `private/${file.id}/${file.name}`;
}

/** `expires_in` in whole seconds, the platform's default when absent. */
function requireLifetime(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_SIGNED_URL_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SIGNED_URL_SECONDS) {
    throw invalidInput(
      `expires_in must be a whole number of seconds from 1 to ${MAX_SIGNED_URL_SECONDS}`,
      'invalid_expires_in',
    );
  }
  return value;
}

/** `Core.CreateFileSignedUrl`: a URL that serves the app's private file until `expires_in` has passed. */
export function signPrivateFile(context: EmulatorContext, app: AppConfig, fields: Record<string, unknown>): Reply {
  const uri = fields.file_uri;
  if (typeof uri !== 'string' || uri === '') throw invalidInput('file_uri is required', 'missing_file_uri');
  const seconds = requireLifetime(fields.expires_in);
  const match = PRIVATE_URI.exec(uri);
  const file = match ? context.store.file(match[1] as string) : undefined;
  // Another app's file, a public file and a made-up URI are all the same: not a file of this app.
  if (!file?.private || file.app_id !== app.id || file.name !== match?.[2]) {
    throw notFound(`There is no private file ${uri.slice(0, 200)} in this app`, 'file_not_found');
  }
  const token = context.fileUrls.sign(app.id, file.id, seconds);
  const path = `/api/files/private/${encodeURIComponent(app.id)}/${file.id}/${encodeURIComponent(file.name)}`;
  return jsonReply(200, { signed_url: `${context.baseUrl()}${path}?token=${token}` });
}

function fileHeaders(file: StoredFile, length: number): Record<string, string> {
  const inline = INLINE_TYPES.test(file.type);
  return {
    'Content-Type': inline ? file.type : 'application/octet-stream',
    'Content-Length': String(length),
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
}

async function bytesOf(context: EmulatorContext, file: StoredFile | undefined): Promise<Buffer> {
  const bytes = file ? await context.blobs.get(file.id) : null;
  if (!bytes) throw notFound('File not found', 'file_not_found');
  return bytes;
}

/**
 * Refusals of a signed URL in the body the platform's file storage (and the vendor's backend) gives
 * them: `{ error, message, statusCode }`, not the API's error shape. A browser shows them as text.
 */
function refusal(status: 400 | 401, error: string, message?: string): Reply {
  const body = message === undefined ? { error } : { error, message, statusCode: String(status) };
  return jsonReply(status, body, { 'Referrer-Policy': 'no-referrer' });
}

async function servePrivate(context: EmulatorContext, request: RouteRequest): Promise<Reply> {
  const { appId, fileId, name } = request.params as Record<'appId' | 'fileId' | 'name', string>;
  const token = request.url.searchParams.get('token');
  if (token === null || token === '') return refusal(401, 'Missing token');
  const verdict = context.fileUrls.check(appId, fileId, token);
  if (verdict === 'invalid') return refusal(400, 'InvalidJWT', 'signature verification failed');
  if (verdict === 'expired') {
    return refusal(400, 'InvalidJWT', 'The signed URL has expired; create a new one with Core.CreateFileSignedUrl');
  }
  const file = context.store.file(fileId);
  const found = file?.private && file.app_id === appId && file.name === name ? file : undefined;
  const bytes = await bytesOf(context, found);
  const headers = { ...fileHeaders(found as StoredFile, bytes.length), 'Referrer-Policy': 'no-referrer' };
  return { status: 200, headers: { ...headers, 'Cache-Control': 'private, no-store' }, body: bytes };
}

export function registerFileRoutes(router: Router, context: EmulatorContext): void {
  router.add('GET', '/api/files/:appId/:fileId/:name', async (request) => {
    const file = context.store.file(request.params.fileId as string);
    // A private file is served by no public URL, not even one naming its id.
    const found = file && !file.private && file.app_id === request.params.appId ? file : undefined;
    const bytes = await bytesOf(context, found);
    const headers = { ...fileHeaders(found as StoredFile, bytes.length), 'Cache-Control': 'private, max-age=3600' };
    return { status: 200, headers, body: bytes };
  });
  router.add('GET', '/api/files/private/:appId/:fileId/:name', (request) => servePrivate(context, request));
}
