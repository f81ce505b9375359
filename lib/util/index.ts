/**
 * Small helpers every part of lib/ needs: URLs and origins, "is there a browser", storage that never
 * throws, object guards, origin lists.
 *
 * Why here and not in lib/sdk: these are not the platform client's API, yet the SDK needs them as
 * much as lib/config, lib/frame and the build steps do. So this folder depends on nothing in the
 * project (ESLint enforces it), and lib/sdk may import it (relatively, so the SDK still builds on its
 * own) without depending on any other part of the site.
 */
export { hasWindow } from './environment';
export { isPlainObject, type PlainObject } from './object';
export { parseOriginList, type ParsedOriginList } from './origin-list';
export { readStorage, removeStorage, safeStorage, writeStorage, type StorageArea } from './storage';
export { originOf, parseAbsoluteHttpUrl } from './url';
