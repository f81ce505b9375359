/**
 * The contract of a custom integration's local stand-in. On the platform a custom integration calls
 * a third-party API described by an OpenAPI document (`integrations.custom.call(slug, operationId,
 * params)`); the emulator has no such API to call, so an app of the seed may name an
 * `integrationsDir` of modules `{slug}.ts` whose default export maps operation ids to handlers. They
 * stand in for a remote service, not for backend functions (those run on Deno, see runtime.ts), and
 * are imported into the emulator's process. A handler's return value becomes `data` of
 * `{ success, status_code, data }`; a web Response keeps its status.
 */

/** The caller as a stand-in sees it: a signed-in user, or null for visitors and the service role. */
export interface IntegrationUser {
  id: string;
  email: string;
  full_name: string;
  role: 'admin' | 'user';
}

export interface CustomIntegrationInput {
  appId: string;
  operationId: string;
  /** The call's named parameters (`payload` of the call). */
  payload: Record<string, unknown>;
  pathParams: Record<string, unknown>;
  queryParams: Record<string, unknown>;
  user: IntegrationUser | null;
  serviceRole: boolean;
}

export type CustomIntegrationOperation = (input: CustomIntegrationInput) => unknown;

export type CustomIntegrationModule = Record<string, CustomIntegrationOperation>;
