import PageNotFound from '@/components/screens/PageNotFound';

/**
 * The 404 screen every page carries for hosts that answer unknown paths with a page's HTML: hidden,
 * unless EarlyHead's check marked the address as no page before the first paint; then it shows and
 * the page after it is hidden (app/globals.css), also without JavaScript's help from then on.
 */
export default function MissingPageFallback() {
  return (
    <div data-missing-page-fallback="">
      <PageNotFound />
    </div>
  );
}
