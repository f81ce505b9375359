import { notFound } from '../core/errors';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/**
 * Serves uploaded files. URLs carry an unguessable id, like the platform's public file URLs. The
 * files come from users and share the emulator's origin with the login page, so they are served
 * sandboxed, never sniffed, and downloaded instead of rendered unless they are plainly inert.
 */

const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|text\/plain|application\/pdf|audio\/\w+|video\/\w+)$/;

export function registerFileRoutes(router: Router, context: EmulatorContext): void {
  router.add('GET', '/api/files/:appId/:fileId/:name', async (request) => {
    const meta = context.store.file(request.params.fileId as string);
    if (!meta || meta.app_id !== request.params.appId) throw notFound('File not found', 'file_not_found');
    const bytes = await context.blobs.get(meta.id);
    if (!bytes) throw notFound('File not found', 'file_not_found');
    const inline = INLINE_TYPES.test(meta.type);
    return {
      status: 200,
      headers: {
        'Content-Type': inline ? meta.type : 'application/octet-stream',
        'Content-Length': String(bytes.length),
        'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(meta.name)}`,
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Cache-Control': 'private, max-age=3600',
      },
      body: bytes,
    };
  });
}
