/**
 * Runs one row of the differential suite on one backend: its steps in order, each answer
 * normalised (normalise.ts), values kept for later steps, and the events of a subscription last.
 */
import type { Backend } from './backends';
import { Normaliser } from './normalise';
import { APP_ID } from './project';
import type { CodeStep, Row, Seen, Step, WaitStep } from './rows';

type Kept = Map<string, string>;

/** `{name}` in a string replaced by a kept value (other braces left alone). */
function filled(text: string, kept: Kept): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => kept.get(name) ?? whole);
}

/** Kept values put into every string of a body or a header map. */
function filledValue(value: unknown, kept: Kept): unknown {
  if (typeof value === 'string') return filled(value, kept);
  if (Array.isArray(value)) return value.map((item) => filledValue(item, kept));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filledValue(item, kept)]));
  }
  return value;
}

function isRequest(step: Step | CodeStep | WaitStep): step is Step {
  return 'method' in step;
}

async function runStep(backend: Backend, step: Step, kept: Kept, normaliser: Normaliser): Promise<Seen> {
  const path = step.path.replace(/\{(\w+)\}/g, (_, name: string) => kept.get(name) ?? `missing-${name}`);
  const answer = await backend.exchange(step.actor, {
    method: step.method,
    path,
    ...(step.body === undefined ? {} : { body: filledValue(step.body, kept) }),
    ...(step.raw ? { raw: step.raw } : {}),
    ...(step.upload ? { upload: step.upload } : {}),
    ...(step.headers ? { headers: filledValue(step.headers, kept) as Record<string, string> } : {}),
    ...(step.bare ? { bare: true } : {}),
  });
  const fields = (answer.body ?? {}) as Record<string, unknown>;
  if (step.save && typeof fields.id === 'string') {
    kept.set(step.save, fields.id);
    normaliser.known(fields.id);
  }
  for (const [name, field] of Object.entries(step.keep ?? {})) {
    if (typeof fields[field] === 'string') kept.set(name, fields[field]);
  }
  const body = normaliser.value(answer.body);
  if (!step.expose) return { status: answer.status, body };
  const headers = Object.fromEntries(step.expose.map((name) => [name, answer.headers.get(name)]));
  return { status: answer.status, body: { headers: normaliser.value(headers), body } };
}

export async function runRow(backend: Backend, row: Row): Promise<Seen[]> {
  const normaliser = new Normaliser(backend.url);
  const kept: Kept = new Map();
  const live = row.realtime
    ? await backend.subscribe(row.realtime.actor, `entities:${APP_ID}:${row.realtime.entity}`)
    : null;
  const seen: Seen[] = [];
  for (const step of row.steps) {
    if (!isRequest(step)) {
      if ('codeFor' in step) kept.set('code', await backend.latestCode(step.codeFor));
      else await new Promise((resolve) => setTimeout(resolve, step.waitMs));
      continue;
    }
    const answer = await runStep(backend, step, kept, normaliser);
    if (!step.setup) seen.push(answer);
  }
  if (live) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    live.close();
    seen.push({ status: 0, body: normaliser.value(live.events) });
  }
  return seen;
}
