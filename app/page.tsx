import { mainPage, pages } from '@/pages.config';

/** `/` renders the registry's main page. */
export default function MainPage() {
  const Page = pages[mainPage];
  return <Page />;
}
