import type { FunctionHandler } from '../../function-types';

/**
 * Sample backend function: greets the caller and describes what it received, so tests can see the
 * payload, uploaded files, the calling user and (through functions.fetch) the raw request arrive intact.
 */
const hello: FunctionHandler = async ({ appId, payload, files, user, serviceRole, http }) => {
  const name = typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name.trim() : 'world';
  const received = await Promise.all(
    Object.entries(files).map(async ([field, file]) => ({
      field,
      name: file.name,
      size: file.size,
      text: (await file.text()).slice(0, 1000),
    })),
  );
  return {
    message: `Hello, ${name}!`,
    app_id: appId,
    user: user ? { id: user.id, email: user.email, role: user.role } : null,
    service_role: serviceRole,
    payload,
    files: received,
    // Called through functions.fetch: what the raw HTTP request looked like.
    ...(http
      ? {
          http: {
            method: http.request.method,
            subpath: http.subpath,
            query: Object.fromEntries(new URL(http.request.url).searchParams),
            body: await http.request.text(),
          },
        }
      : {}),
  };
};

export default hello;
