import { compileCriteria, type RecordPredicate } from '../query/engine';
import { ownValue } from '../util/own';
import type { SecurityRule } from './definition';

/**
 * One security rule (docs.base44.com, Entities → Security) turned into a predicate over a record,
 * for one caller. `true`/missing/`{}` allow, `false` denies, a condition is translated into a query
 * for our engine: record fields (`created_by`, `created_by_id`, `data.<field>`, ...) compared with
 * literals or `{{user.*}}` templates, `user_condition` (equality on the caller's own fields), the
 * field operators `$in $nin $ne $all` and `$or $and $nor`. Template values are the caller's data:
 * they are always placed as operands of `$eq`/`$in`/... and only scalars are used, so a value a
 * user chose can never become an operator. A template naming something the caller does not have
 * matches nothing. Anything outside the documented syntax is an `InvalidRule`.
 */

/** The caller as rules see it: `{{user.email}}`, `{{user.id}}`, `{{user.role}}`, `{{user.data.*}}`. */
export interface RuleSubject {
  email: string;
  id: string;
  role: string;
  /** The caller's own custom fields (the fields of its `User` record). */
  data: Readonly<Record<string, unknown>>;
}

export class InvalidRule extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRule';
  }
}

type Criteria = Record<string, unknown>;

export const ALWAYS: RecordPredicate = () => true;
/** The rule is `false`: no one, on any record. */
export const NEVER: RecordPredicate = () => false;
/** A condition judged for an anonymous visitor, whom no condition admits (the rule itself is not `false`). */
export const NO_VISITOR: RecordPredicate = () => false;
/** Matches no document: `{}` matches every one, so nor-ing it matches none. */
const MATCH_NONE: Criteria = { $nor: [{}] };
const MATCH_ALL: Criteria = {};

/** Record fields a condition may name besides `data.<field>` (the documented list). */
const RECORD_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
  'entity_name',
  'app_id',
  'environment',
  'is_sample',
  'is_deleted',
  'deleted_date',
]);
const FIELD_OPERATORS: ReadonlySet<string> = new Set(['$in', '$nin', '$ne', '$all']);
const LOGICAL = new Set(['$or', '$and', '$nor']);
const WHOLE_TEMPLATE = /^\{\{\s*user\.([A-Za-z0-9_.]+)\s*\}\}$/;
const ANY_TEMPLATE = /\{\{\s*user\.([A-Za-z0-9_.]+)\s*\}\}/g;
const MAX_DEPTH = 16;

/** Marks a template the caller cannot fill: the comparison holding it matches nothing. */
const UNRESOLVED = Symbol('unresolved');
type Resolved = string | number | boolean | null | typeof UNRESOLVED;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A user attribute: `email`, `id`, `role` or `data.<field>`; only scalars count. */
function userValue(subject: RuleSubject, path: string): Resolved {
  let value: unknown;
  if (path === 'email' || path === 'id' || path === 'role') value = subject[path];
  else if (path.startsWith('data.') && !path.slice(5).includes('.')) value = ownValue(subject.data, path.slice(5));
  else throw new InvalidRule(`"user.${path}" is not a user attribute (email, id, role, data.<field>)`);
  return value === undefined || !isScalar(value) ? UNRESOLVED : value;
}

/** A literal from the rule, with `{{user.*}}` filled in: a whole template keeps the value's type. */
function resolve(value: unknown, subject: RuleSubject): Resolved {
  if (!isScalar(value)) throw new InvalidRule(`${JSON.stringify(value)} is not a value a rule can compare with`);
  if (typeof value !== 'string') return value;
  const whole = WHOLE_TEMPLATE.exec(value);
  if (whole) return userValue(subject, whole[1] as string);
  let unresolved = false;
  const text = value.replace(ANY_TEMPLATE, (_match, path: string) => {
    const part = userValue(subject, path);
    if (part === UNRESOLVED) unresolved = true;
    return String(part === UNRESOLVED ? '' : part);
  });
  return unresolved ? UNRESOLVED : text;
}

function fieldCriteria(path: string, value: unknown, subject: RuleSubject): Criteria {
  if (!isObject(value)) {
    const resolved = resolve(value, subject);
    return resolved === UNRESOLVED ? MATCH_NONE : { [path]: { $eq: resolved } };
  }
  const operators: Criteria = {};
  for (const [operator, operand] of Object.entries(value)) {
    if (!FIELD_OPERATORS.has(operator))
      throw new InvalidRule(`"${operator}" is not a rule operator (use $in, $nin, $ne or $all)`);
    if (operator === '$ne') {
      const resolved = resolve(operand, subject);
      if (resolved === UNRESOLVED) return MATCH_NONE;
      operators.$ne = resolved;
      continue;
    }
    if (!Array.isArray(operand)) throw new InvalidRule(`${operator} needs a list of values`);
    const list = operand.map((item) => resolve(item, subject));
    // `$in` may still match through the values it has; `$nin`/`$all` would promise too much.
    if (list.includes(UNRESOLVED) && operator !== '$in') return MATCH_NONE;
    operators[operator] = list.filter((item) => item !== UNRESOLVED);
  }
  if (Object.keys(operators).length === 0) throw new InvalidRule(`The condition on "${path}" is empty`);
  return { [path]: operators };
}

function userCondition(value: unknown, subject: RuleSubject): Criteria {
  if (!isObject(value) || Object.keys(value).length === 0)
    throw new InvalidRule('user_condition must be a non-empty object of attribute: value pairs');
  for (const [key, expected] of Object.entries(value)) {
    if (key.startsWith('$') || isObject(expected))
      throw new InvalidRule('user_condition compares by equality only: no operators');
    const actual = userValue(subject, key);
    const wanted = resolve(expected, subject);
    if (actual === UNRESOLVED || wanted === UNRESOLVED || actual !== wanted) return MATCH_NONE;
  }
  return MATCH_ALL;
}

function condition(rule: unknown, subject: RuleSubject, depth: number): Criteria {
  if (depth > MAX_DEPTH) throw new InvalidRule('The condition nests too deeply');
  if (!isObject(rule)) throw new InvalidRule('A condition must be an object');
  const parts: Criteria[] = [];
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'user_condition') parts.push(userCondition(value, subject));
    else if (LOGICAL.has(key)) {
      if (!Array.isArray(value) || value.length === 0)
        throw new InvalidRule(`${key} needs a non-empty list of conditions`);
      parts.push({ [key]: value.map((item) => condition(item, subject, depth + 1)) });
    } else if (RECORD_FIELDS.has(key) || (key.startsWith('data.') && key.length > 5 && !key.includes('$')))
      parts.push(fieldCriteria(key, value, subject));
    else throw new InvalidRule(`"${key}" is not a record field a rule can name (created_by, data.<field>, ...)`);
  }
  return parts.length === 1 ? (parts[0] as Criteria) : { $and: parts.length === 0 ? [MATCH_ALL] : parts };
}

/**
 * The predicate of a rule for one caller, over the record as the rules address it (see
 * `ruleDocument`). `subject` null = an anonymous visitor, whom no condition admits.
 */
export function compileRule(rule: SecurityRule | undefined, subject: RuleSubject | null): RecordPredicate {
  if (rule === undefined || rule === true) return ALWAYS;
  if (rule === false) return NEVER;
  if (Object.keys(rule).length === 0) return ALWAYS;
  if (subject === null) {
    condition(rule, { email: '', id: '', role: '', data: {} }, 0); // still refuse a malformed rule
    return NO_VISITOR;
  }
  return compileCriteria(condition(rule, subject, 0));
}

/** Checks a rule's syntax without a caller: the loader refuses an entity file whose rule fails it. */
export function checkRule(rule: SecurityRule | undefined): void {
  compileRule(rule, { email: '', id: '', role: '', data: {} });
}
