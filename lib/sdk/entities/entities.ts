/**
 * Entity collections: `entities.<Name>.list()`, `.filter()`, `.get()`... (docs/SPEC.md section 7).
 */
import type {
  DeleteManyResult,
  DeleteResult,
  EntityAggregateResult,
  EntityAggregateSpec,
  EntityDistinctOptions,
  EntityListOptions,
  EntityPage,
  EntityUpdateOperators,
  EntityUpsertOptions,
  EntityUpsertResult,
  ImportResult,
  UpdateManyResult,
} from '../core/entity-query-types';
import { invalidArgument, toJson } from '../core/errors';
import type { CallOptions, ModuleContext } from '../core/transport';
import type {
  EntityChangeEvent,
  EntityFields,
  EntityFilter,
  EntityRecord,
  EntitySchemas,
  FieldName,
  SchemaFields,
  SortKey,
  Unsubscribe,
  WatchOptions,
  WatchSnapshot,
} from '../core/types';
import { apiPath, assertPathSegment, isPlainObject, proxyKey } from '../core/validate';
import type { RealtimeSubscriptions } from '../realtime/realtime-loader';
import type { SubscriptionHooks } from '../realtime/subscription-hooks';

/** Operations on one entity collection. `T` is the record's own fields. */
export interface EntityHandler<T extends object = EntityFields> {
  /**
   * Lists records. `GET /apps/{appId}/entities/{Name}?sort&limit&skip&fields`.
   * @param sort - Field name; a leading "-" sorts descending (server default "-created_date").
   * @param limit - Maximum records (server default 50).
   * @param skip - Records to skip, for paging.
   * @param fields - Only these fields (plus metadata) are returned.
   */
  list(
    sort?: SortKey<T>,
    limit?: number,
    skip?: number,
    fields?: readonly FieldName<T>[],
    options?: CallOptions,
  ): Promise<EntityRecord<T>[]>;
  /** One cursor page of the distinct values of a field (`GET {Name}/v2/list?distinct`). */
  list<K extends FieldName<T>>(
    options: EntityDistinctOptions<EntityRecord<T>, K>,
    callOptions?: CallOptions,
  ): Promise<EntityPage<EntityRecord<T>[K]>>;
  /** One cursor page of records (`GET {Name}/v2/list`); pass `next_cursor` back as `cursor`. */
  list(options: EntityListOptions<EntityRecord<T>>, callOptions?: CallOptions): Promise<EntityPage<EntityRecord<T>>>;
  /** Lists records matching a Mongo-like filter, sent as the `q` JSON parameter. */
  filter(
    query: EntityFilter<T>,
    sort?: SortKey<T>,
    limit?: number,
    skip?: number,
    fields?: readonly FieldName<T>[],
    options?: CallOptions,
  ): Promise<EntityRecord<T>[]>;
  /** One cursor page of the distinct values of a field among the matching records. */
  filter<K extends FieldName<T>>(
    query: EntityFilter<T>,
    options: EntityDistinctOptions<EntityRecord<T>, K>,
    callOptions?: CallOptions,
  ): Promise<EntityPage<EntityRecord<T>[K]>>;
  /** One cursor page of the matching records. */
  filter(
    query: EntityFilter<T>,
    options: EntityListOptions<EntityRecord<T>>,
    callOptions?: CallOptions,
  ): Promise<EntityPage<EntityRecord<T>>>;
  /** Reads one record by id. */
  get(id: string, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Creates a record; objects holding File/Blob values are sent as multipart. */
  create(data: Partial<T>, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Updates a record with a partial set of fields (`PUT`). */
  update(id: string, data: Partial<T>, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Deletes one record. */
  delete(id: string, options?: CallOptions): Promise<DeleteResult>;
  /** Deletes every record matching the filter (`DELETE` on the collection with the filter as body). */
  deleteMany(query: EntityFilter<T>, options?: CallOptions): Promise<DeleteManyResult>;
  /** Creates several records in one request. */
  bulkCreate(records: Partial<T>[], options?: CallOptions): Promise<EntityRecord<T>[]>;
  /** Applies an update operator document to every matching record (`PATCH {Name}/update-many`). */
  updateMany(query: EntityFilter<T>, data: EntityUpdateOperators, options?: CallOptions): Promise<UpdateManyResult>;
  /** Updates several records by id, each with its own fields (`PUT {Name}/bulk`). */
  bulkUpdate(records: (Partial<T> & { id: string })[], options?: CallOptions): Promise<EntityRecord<T>[]>;
  /** Creates or updates records by a natural key (`POST {Name}/upsert`). */
  upsert(
    records: Partial<T>[],
    upsertOptions: EntityUpsertOptions<EntityRecord<T>>,
    options?: CallOptions,
  ): Promise<EntityUpsertResult<EntityRecord<T>>>;
  /** How many records match (`GET {Name}/count?q`); all records without a query. */
  count(query?: EntityFilter<T>, options?: CallOptions): Promise<number>;
  /** A server-side group-by (`POST {Name}/aggregate`). */
  aggregate(spec: EntityAggregateSpec<EntityRecord<T>>, options?: CallOptions): Promise<EntityAggregateResult>;
  /** Imports records from a file (multipart field `file`). */
  importEntities(file: Blob, options?: CallOptions): Promise<ImportResult<EntityRecord<T>>>;
  /**
   * Calls `callback` for every create, update and delete in this collection. Loads the real-time
   * client on first use. `hooks` (ours, optional) report errors, joins and disconnects.
   * @returns A function that stops the subscription.
   */
  subscribe(callback: (event: EntityChangeEvent<T>) => void, hooks?: SubscriptionHooks): Unsubscribe;
  /**
   * A live query (ours, in the shape the vendor proposes; docs/LIVE-QUERIES.md): `callback` first
   * receives the current result of `filter(filter, sort, limit, 0, fields)`, then the whole new
   * result after every change to it. Loads the real-time client on first use; `hooks` as for
   * `subscribe`.
   * @returns A function that stops the watch.
   */
  watch(
    options: WatchOptions<T>,
    callback: (snapshot: WatchSnapshot<EntityRecord<T>>) => void,
    hooks?: SubscriptionHooks,
  ): Unsubscribe;
}

/** `entities.<Name>` for every name in the schema. */
export type EntitiesModule<S extends EntitySchemas> = {
  // Remapped (not `keyof S & string`) so that a schema with both named entities and an index
  // signature, such as DefaultEntitySchemas, keeps each name's own type next to the untyped rest.
  readonly [Name in keyof S as Name extends string ? Name : never]: EntityHandler<
    string extends Name ? EntityFields : SchemaFields<S, Name>
  >;
};

interface EntityContext extends ModuleContext {
  realtime: () => RealtimeSubscriptions;
}

function assertFilter(query: unknown): void {
  if (!isPlainObject(query)) throw invalidArgument('The filter must be an object, e.g. { status: "open" }');
}

const DEFAULT_PAGE_LIMIT = 100;
const fieldList = (fields: unknown) => (Array.isArray(fields) && fields.length > 0 ? fields.join(',') : undefined);

/** The array form's query; like the reference, a 0 limit or skip is left out (the server default applies). */
function listQuery(sort?: unknown, limit?: unknown, skip?: unknown, fields?: unknown, filter?: object) {
  return {
    q: filter ? toJson('The filter', filter) : undefined,
    sort: sort ? String(sort) : undefined,
    limit: limit ? Number(limit) : undefined,
    skip: skip ? Number(skip) : undefined,
    fields: fieldList(fields),
  };
}

/** The cursor-page form's query (`v2/list`): `distinct` excludes sort and fields. */
function pageQuery(options: Record<string, unknown>, filter?: object) {
  const distinct = 'distinct' in options;
  return {
    q: filter ? toJson('The filter', filter) : undefined,
    limit: Number(options.limit) || DEFAULT_PAGE_LIMIT,
    cursor: options.cursor ? String(options.cursor) : undefined,
    distinct: distinct ? String(options.distinct) : undefined,
    sort: !distinct && options.sort ? String(options.sort) : undefined,
    fields: distinct ? undefined : fieldList(options.fields),
  };
}

/** Creates the handler for one entity name. */
export function createEntityHandler<T extends object = EntityFields>(
  context: EntityContext,
  entityName: string,
): EntityHandler<T> {
  const { transport, appId } = context;
  const name = assertPathSegment('Entity name', entityName);
  const collection = apiPath`/apps/${appId}/entities/${name}`;
  const item = (id: string) => `${collection}/${encodeURIComponent(assertPathSegment('Record id', id))}`;

  // list(sort, limit, skip, fields) returns an array; list(options) returns one cursor page.
  // Async, so a filter that cannot be encoded rejects like every other failure.
  const read = async (filter: object | undefined, args: unknown[]) => {
    const [first, limit, skip, fields, options] = args;
    if (isPlainObject(first)) {
      return transport.request(
        { method: 'GET', path: `${collection}/v2/list`, query: pageQuery(first, filter) },
        limit as CallOptions,
      );
    }
    return transport.request(
      { method: 'GET', path: collection, query: listQuery(first, limit, skip, fields, filter) },
      options as CallOptions,
    );
  };
  const seldom =
    (name: keyof typeof import('./seldom-calls.lazy').seldomEntityCalls, arity: number) =>
    async (...args: unknown[]) =>
      (await import('./seldom-calls.lazy')).seldomEntityCalls[name](
        transport,
        collection,
        args.slice(0, arity),
        args[arity] as CallOptions,
      );

  return {
    list: (async (...args: unknown[]) => read(undefined, args)) as EntityHandler<T>['list'],
    filter: (async (query: unknown, ...args: unknown[]) => {
      assertFilter(query);
      return read(query as object, args);
    }) as EntityHandler<T>['filter'],
    async get(id, options) {
      return transport.request({ method: 'GET', path: item(id) }, options);
    },
    async create(data, options) {
      return transport.request({ method: 'POST', path: collection, body: data }, options);
    },
    async update(id, data, options) {
      return transport.request({ method: 'PUT', path: item(id), body: data }, options);
    },
    async delete(id, options) {
      return transport.request({ method: 'DELETE', path: item(id) }, options);
    },
    async deleteMany(query, options) {
      assertFilter(query);
      return transport.request({ method: 'DELETE', path: collection, body: query }, options);
    },
    async bulkCreate(records, options) {
      if (!Array.isArray(records)) throw invalidArgument('bulkCreate needs an array of records');
      return transport.request({ method: 'POST', path: `${collection}/bulk`, body: records }, options);
    },
    updateMany: seldom('updateMany', 2) as EntityHandler<T>['updateMany'],
    bulkUpdate: seldom('bulkUpdate', 1) as EntityHandler<T>['bulkUpdate'],
    upsert: seldom('upsert', 2) as EntityHandler<T>['upsert'],
    count: seldom('count', 1) as EntityHandler<T>['count'],
    aggregate: seldom('aggregate', 1) as EntityHandler<T>['aggregate'],
    async importEntities(file, options) {
      if (typeof Blob === 'undefined' || !(file instanceof Blob))
        throw invalidArgument('importEntities needs a File or Blob');
      const form = new FormData();
      form.append('file', file, typeof File !== 'undefined' && file instanceof File ? file.name : 'import');
      return transport.request({ method: 'POST', path: `${collection}/import`, body: form }, options);
    },
    subscribe(callback, hooks) {
      return context.realtime().subscribeToEntity<T>(name, callback, hooks);
    },
    // Only a forwarder up front: the checks and everything else load with real-time (docs/LIVE-QUERIES.md).
    watch(options, callback, hooks) {
      const load = () =>
        read(options.filter, [options.sort, options.limit, 0, options.fields]) as Promise<EntityRecord<T>[]>;
      return context.realtime().watchEntity<T>(name, { options, load }, callback, hooks);
    },
  };
}

/**
 * The `entities` object: every property name is an entity. Handlers are created on first access and
 * cached. Names starting with "_" and `then` are not entities, so the object is never mistaken for a
 * promise or probed by tooling.
 */
export function createEntitiesModule<S extends EntitySchemas>(context: EntityContext): EntitiesModule<S> {
  const handlers = new Map<string, EntityHandler<object>>();
  return new Proxy({} as EntitiesModule<S>, {
    get(_target, property) {
      const name = proxyKey(property);
      if (name === undefined) return undefined;
      let handler = handlers.get(name);
      if (!handler) {
        handler = createEntityHandler(context, name);
        handlers.set(name, handler);
      }
      return handler;
    },
  });
}
