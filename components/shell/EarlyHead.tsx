import { REFERRER_POLICY } from '@/deploy/headers/policy';
import { FRAME_GUARD_ATTRIBUTE } from '@/lib/frame/frame-guard';
import { policyFromEnvironment } from '@/lib/frame/origin-policy';
import { earlyDocumentScript } from '@/lib/site/early-document';
import { MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE } from '@/lib/site/missing-page';
import { pageNames } from '@/lib/site/page-names';

const { policy } = policyFromEnvironment();

/**
 * The site's early inline script (see lib/site/early-document.ts): the same text on every page of a
 * build, whose hash build-steps/export/generate-headers.ts adds to script-src like any inline script's.
 */
const EARLY_DOCUMENT_SCRIPT = earlyDocumentScript({
  pageNames,
  notFoundTitle: NOT_FOUND_TITLE,
  editorOrigins: policy.configured,
  allowLoopback: policy.allowsLoopback,
  missingAttribute: MISSING_PAGE_ATTRIBUTE,
  frameAttribute: FRAME_GUARD_ATTRIBUTE,
});

/**
 * The first children of `<head>` (app/layout.tsx). The referrer meta repeats the Referrer-Policy header for hosts that
 * serve the export without our headers; it must come before the first request it should cover.
 */
export default function EarlyHead() {
  return (
    <>
      <meta name="referrer" content={REFERRER_POLICY} />
      <script dangerouslySetInnerHTML={{ __html: EARLY_DOCUMENT_SCRIPT }} />
    </>
  );
}
