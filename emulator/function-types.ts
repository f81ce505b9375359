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
}

export type FunctionHandler = (context: FunctionContext) => unknown;
