/**
 * The id of an empty element right after the page's content in app/layout.tsx: `<head>` asks the
 * browser to hold the first paint until it is parsed (`<link rel="expect" blocking="render">`), so the
 * first paint shows the whole first screen and nothing shifts as the rest of the HTML arrives.
 */
export const FIRST_SCREEN_END_ID = 'first-screen-end';
