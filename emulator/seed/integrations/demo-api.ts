import type { CustomIntegrationModule } from '../../functions/integration-module';

/**
 * Sample custom integration (`integrations.custom.call('demo-api', ...)`): `echo` describes what it
 * received, `teapot` answers like an upstream API that failed.
 */
const demoApi: CustomIntegrationModule = {
  echo: ({ appId, operationId, payload, pathParams, queryParams, user }) => ({
    app_id: appId,
    operation: operationId,
    payload,
    path_params: pathParams,
    query_params: queryParams,
    user: user ? { id: user.id, email: user.email } : null,
  }),
  teapot: () =>
    new Response(JSON.stringify({ error: 'short and stout' }), {
      status: 418,
      headers: { 'Content-Type': 'application/json' },
    }),
};

export default demoApi;
