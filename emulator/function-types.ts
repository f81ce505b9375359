/**
 * The contract of a local backend function: a module in the app's functions folder
 * (`{functionsDir}/{name}.ts|.js|.mts|.mjs`) whose default export (or `handler` export) is a
 * FunctionHandler. It may return any JSON value (sent as 200) or a web `Response` (sent as is);
 * a thrown error becomes a 500 with the error's message.
 */

export interface FunctionUser {
  id: string;
  email: string;
  full_name: string;
  role: 'admin' | 'user';
}

export interface FunctionContext {
  appId: string;
  /** Named parameters: the JSON body, or the multipart fields (object values already parsed). */
  payload: Record<string, unknown>;
  /** Multipart file parts by field name. */
  files: Record<string, File>;
  /** The calling user, or null for visitors and the service role. */
  user: FunctionUser | null;
  serviceRole: boolean;
  /**
   * Set when the function is called with `functions.fetch` (`/api/functions/{name}/{path}`): the
   * request as sent, with its method, headers, query and body, and the path after the name.
   */
  http?: { request: Request; subpath: string };
}

export type FunctionHandler = (context: FunctionContext) => unknown;

/**
 * A custom integration, local stand-in for an OpenAPI integration of the platform: a module
 * `{functionsDir}/integrations/{slug}.ts` whose default export maps operation ids to handlers.
 * `integrations.custom.call(slug, operationId, { payload, pathParams, queryParams })` runs one; its
 * return value becomes `data` of `{ success, status_code, data }` (a web Response keeps its status).
 */
export interface CustomIntegrationInput {
  appId: string;
  operationId: string;
  /** The call's named parameters (`payload` of the call). */
  payload: Record<string, unknown>;
  pathParams: Record<string, unknown>;
  queryParams: Record<string, unknown>;
  user: FunctionUser | null;
  serviceRole: boolean;
}

export type CustomIntegrationOperation = (input: CustomIntegrationInput) => unknown;

export type CustomIntegrationModule = Record<string, CustomIntegrationOperation>;
