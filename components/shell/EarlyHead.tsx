import { REFERRER_POLICY } from '@/deploy/headers/policy';

/**
 * Runs before Next.js reads the address bar. A path starting with `//` (`//ComingSoon`, or
 * `/\host/x`, which browsers turn into `//host/x`) is a valid same-origin URL, but every
 * path-relative `history.replaceState(state, '', '//host/x')` (Next's router syncs its URL that
 * way) resolves it as a protocol-relative URL of another host and throws a SecurityError, which
 * crashed the app. Collapsing the leading slashes with an absolute URL keeps the visitor on the same
 * origin and document (the static host already served the page `//x` resolves to). Its hash is
 * added to script-src by build-steps/export/generate-headers.ts like any inline script.
 */
const COLLAPSE_LEADING_SLASHES = [
  '(function(){var l=window.location,p=l.pathname;if(p.slice(0,2)!=="//")return;',
  'try{history.replaceState(history.state,"",l.origin+p.replace(/^\\/+/,"/")+l.search+l.hash)}catch(e){}})()',
].join('');

/**
 * The first children of `<head>` (app/layout.tsx). The referrer meta repeats the Referrer-Policy header for hosts that
 * serve the export without our headers; it must come before the first request it should cover.
 */
export default function EarlyHead() {
  return (
    <>
      <meta name="referrer" content={REFERRER_POLICY} />
      <script dangerouslySetInnerHTML={{ __html: COLLAPSE_LEADING_SLASHES }} />
    </>
  );
}
