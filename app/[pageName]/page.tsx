import { notFound } from 'next/navigation';

import { isPageName, pageNames, pages } from '@/pages.config';

// Only registered pages exist; every other name is left to the static host's 404.html.
export const dynamicParams = false;

export function generateStaticParams(): { pageName: string }[] {
  return pageNames.map((pageName) => ({ pageName }));
}

export default async function RegisteredPage({ params }: { params: Promise<{ pageName: string }> }) {
  const { pageName } = await params;
  if (!isPageName(pageName)) notFound();
  const Page = pages[pageName];
  return <Page />;
}
