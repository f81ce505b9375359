// The caller as the function sees it, and what the service role reads past the row rules.
import { createClientFromRequest } from 'npm:@base44/sdk';

Deno.serve(async (req) => {
  try {
    const base44 = createClientFromRequest(req);
    const user = await base44.auth.me();
    const mine = await base44.entities.Note.list();
    const all = await base44.asServiceRole.entities.Note.list();
    return Response.json({ email: user.email, role: user.role, mine: mine.length, all: all.length });
  } catch (error) {
    return Response.json({ error: error.message }, { status: 500 });
  }
});
