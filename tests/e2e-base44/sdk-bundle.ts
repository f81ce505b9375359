/**
 * Our SDK as one classic script for a page (`window.platformSdk.createClient`), built with esbuild
 * from lib/sdk, so a test can drive the real client inside the site's own origin.
 */
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '../..');

export async function sdkScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import { createClient } from '@/lib/sdk';\n(globalThis as any).platformSdk = { createClient };",
      loader: 'ts',
      resolveDir: ROOT,
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    alias: { '@': ROOT },
    write: false,
    logLevel: 'error',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no SDK bundle');
  return file.text;
}
