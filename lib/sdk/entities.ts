/**
 * Entity collections: `entities.<Name>.list()`, `.filter()`, `.get()`... (SPEC section 7).
 */
import { invalidArgument } from './errors';
import type { RealtimeSubscriptions } from './realtime-loader';
import type { CallOptions, Transport } from './transport';
import type {
  EntityChangeEvent,
  EntityFields,
  EntityFilter,
  EntityRecord,
  EntitySchemas,
  SchemaFields,
  FieldName,
  SortKey,
  Unsubscribe,
} from './types';
import { apiPath, assertPathSegment, isPlainObject, proxyKey } from './validate';

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
  /** Lists records matching a Mongo-like filter, sent as the `q` JSON parameter. */
  filter(
    query: EntityFilter<T>,
    sort?: SortKey<T>,
    limit?: number,
    skip?: number,
    fields?: readonly FieldName<T>[],
    options?: CallOptions,
  ): Promise<EntityRecord<T>[]>;
  /** Reads one record by id. */
  get(id: string, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Creates a record; objects holding File/Blob values are sent as multipart. */
  create(data: Partial<T>, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Updates a record with a partial set of fields (`PUT`). */
  update(id: string, data: Partial<T>, options?: CallOptions): Promise<EntityRecord<T>>;
  /** Deletes one record. */
  delete(id: string, options?: CallOptions): Promise<unknown>;
  /** Deletes every record matching the filter (`DELETE` on the collection with the filter as body). */
  deleteMany(query: EntityFilter<T>, options?: CallOptions): Promise<unknown>;
  /** Creates several records in one request. */
  bulkCreate(records: Partial<T>[], options?: CallOptions): Promise<EntityRecord<T>[]>;
  /** Imports records from a file (multipart field `file`). */
  importEntities(file: Blob, options?: CallOptions): Promise<unknown>;
  /**
   * Calls `callback` for every create, update and delete in this collection. Loads the real-time
   * client on first use.
   * @returns A function that stops the subscription.
   */
  subscribe(callback: (event: EntityChangeEvent<T>) => void): Unsubscribe;
}

/** `entities.<Name>` for every name in the schema. */
export type EntitiesModule<S extends EntitySchemas> = { readonly [Name in keyof S & string]: EntityHandler<SchemaFields<S, Name>> };

interface EntityContext {
  transport: Transport;
  appId: string;
  realtime: () => RealtimeSubscriptions;
}

function assertFilter(query: unknown): void {
  if (!isPlainObject(query)) throw invalidArgument('The filter must be an object, e.g. { status: "open" }');
}

function listQuery(sort?: string, limit?: number, skip?: number, fields?: readonly string[], filter?: object) {
  return {
    q: filter ? JSON.stringify(filter) : undefined,
    sort,
    limit,
    skip,
    fields: fields && fields.length > 0 ? fields.join(',') : undefined,
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

  return {
    async list(sort, limit, skip, fields, options) {
      return transport.request({ method: 'GET', path: collection, query: listQuery(sort, limit, skip, fields) }, options);
    },
    async filter(query, sort, limit, skip, fields, options) {
      assertFilter(query);
      return transport.request(
        { method: 'GET', path: collection, query: listQuery(sort, limit, skip, fields, query) },
        options,
      );
    },
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
    async importEntities(file, options) {
      if (typeof Blob === 'undefined' || !(file instanceof Blob)) throw invalidArgument('importEntities needs a File or Blob');
      const form = new FormData();
      form.append('file', file, typeof File !== 'undefined' && file instanceof File ? file.name : 'import');
      return transport.request({ method: 'POST', path: `${collection}/import`, body: form }, options);
    },
    subscribe(callback) {
      return context.realtime().subscribeToEntity<T>(name, callback);
    },
  };
}

/**
 * The `entities` object: any property name is an entity. Handlers are created on first access and
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
