// A backend function in the platform's documented shape (docs.base44.com, Backend functions:
// `base44/functions/<name>/entry.ts`, a Deno.serve handler with a client from createClientFromRequest).
// It runs unchanged on the platform, under `npx base44 dev` and in our emulator (`npm run emulator`).
import { createClientFromRequest } from 'npm:@base44/sdk';

Deno.serve(async (req) => {
  try {
    const base44 = createClientFromRequest(req);
    const user = await base44.auth.me();

    if (!user) {
      return Response.json({ error: 'Unauthorized' }, { status: 401 });
    }

    // The service role reads every Todo, past the entity's row-level rules.
    const todos = await base44.asServiceRole.entities.Todo.list();

    return Response.json({
      email: user.email,
      role: user.role,
      todoCount: todos.length,
    });
  } catch (error) {
    return Response.json({ error: error.message }, { status: 500 });
  }
});
