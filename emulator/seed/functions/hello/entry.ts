/**
 * The seeded apps' sample backend function, in the platform's format (docs.base44.com, Backend
 * functions: a folder with `entry.ts` whose default export handles a web Request), run on Deno by the
 * emulator like every project function. It describes what reached it, so tests see the payload,
 * uploaded files, the caller and the raw request arrive intact.
 *
 * It asks the platform who the caller is with one plain `fetch` (what @base44/sdk's `auth.me()` sends)
 * instead of importing the SDK: loading the SDK costs a fresh Deno process about a second, which every
 * test suite that calls this function would pay on its first call. It uses only web APIs, so the
 * project's TypeScript checks it too.
 */

interface Received {
  payload: unknown;
  files: { field: string; name: string; size: number; text: string }[];
  /** The raw body as text (not for multipart, whose parts are listed instead). */
  body: string | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON as sent, or the multipart fields (as the text sent) and files. */
async function receive(req: Request): Promise<Received> {
  const type = req.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const fields: [string, string][] = [];
    const files: Received['files'] = [];
    for (const [field, value] of await req.formData()) {
      if (typeof value === 'string') fields.push([field, value]);
      else files.push({ field, name: value.name, size: value.size, text: (await value.text()).slice(0, 1000) });
    }
    // fromEntries defines own properties: a part named __proto__ stays a plain field.
    return { payload: Object.fromEntries(fields), files, body: null };
  }
  const body = await req.text();
  const payload: unknown = body !== '' && type.includes('json') ? JSON.parse(body) : {};
  return { payload, files: [], body };
}

/** The caller's User record (id, e-mail, role) from the platform, or null for visitors and the service role. */
async function callerOf(req: Request): Promise<{ id: unknown; email: unknown; role: unknown } | null> {
  const authorization = req.headers.get('authorization');
  const apiUrl = req.headers.get('base44-api-url');
  const appId = req.headers.get('base44-app-id');
  if (!authorization || !apiUrl || !appId) return null;
  const answer = await fetch(`${apiUrl}/api/apps/${encodeURIComponent(appId)}/entities/User/me`, {
    headers: { authorization },
  });
  const me: unknown = await answer.json().catch(() => null);
  return answer.ok && isObject(me) ? { id: me.id, email: me.email, role: me.role } : null;
}

export default async function hello(req: Request): Promise<Response> {
  let received: Received;
  try {
    received = await receive(req);
  } catch {
    return Response.json({ error: 'Malformed JSON body' }, { status: 400 });
  }
  const { payload } = received;
  const name = isObject(payload) && typeof payload.name === 'string' ? payload.name.trim() : '';
  const url = new URL(req.url);
  const authorization = req.headers.get('authorization');
  return Response.json({
    message: `Hello, ${name || 'world'}!`,
    app_id: req.headers.get('base44-app-id'),
    user: await callerOf(req),
    // The platform hands every function the app's service token; a call made with it is the service role's.
    service_role: authorization !== null && authorization === req.headers.get('base44-service-authorization'),
    payload,
    files: received.files,
    http: {
      method: req.method,
      path: url.pathname,
      // What follows the function's name (functions.fetch('/hello/a/b') → "a/b").
      subpath: url.pathname.split('/functions/hello').slice(1).join('/functions/hello').replace(/^\//, ''),
      query: Object.fromEntries(url.searchParams),
      body: received.body,
    },
  });
}
