/**
 * Methods whose code loads on first call: a page that never calls them never downloads them.
 */

type AsyncMethod = (...args: never[]) => Promise<unknown>;

/**
 * An object with the methods `names` of the module `load()` resolves to. The module is loaded once;
 * a failed load (offline, a deploy in between) is retried by the next call.
 */
export function lazyMethods<M extends { [K in Names]: AsyncMethod }, Names extends keyof M & string>(
  load: () => Promise<M>,
  names: readonly Names[],
): Pick<M, Names> {
  let loading: Promise<M> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const methods = {} as Pick<M, Names>;
  for (const name of names) {
    const call = async (...args: unknown[]) =>
      ((await loaded())[name] as unknown as (...a: unknown[]) => Promise<unknown>)(...args);
    methods[name] = call as unknown as M[Names];
  }
  return methods;
}
