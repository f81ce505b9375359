/**
 * @jest-environment node
 *
 * The candidate index never leaves out a live query a write can affect: on 10,000 random filters
 * (equalities, `$eq`, `$in` with and without nulls, arrays and documents among the choices, ranges,
 * `$nin`, several fields) and random records (missing fields, nulls, arrays, documents, values of
 * every JSON type), whenever the query engine's own filter matches a record, the query filed for that
 * filter is among the record's candidates. Deterministic: the seed is printed with any failure;
 * CANDIDATE_SEED=<n> replays one.
 */
import { compileFilter } from '@/emulator/query/engine';
import { CandidateIndex, requiredValues } from '@/emulator/realtime/live-query-candidates';
import { seededRandom, type SeededRandom } from '@/support/seeded-random';

const SEED = Number(process.env.CANDIDATE_SEED ?? 20261129);
const CASES = 10_000;
const RECORDS_PER_FILTER = 12;

const SCALARS: unknown[] = [0, 1, -1, 2.5, '', 'a', 'b', '1', 'é', true, false, null];
const FIELDS = ['a', 'b', 'tags'];

function valueOf(random: SeededRandom, depth = 0): unknown {
  const roll = random.int(10);
  if (roll < 6 || depth > 1) return random.pick(SCALARS);
  if (roll < 9) return Array.from({ length: random.int(4) }, () => valueOf(random, depth + 1));
  return { x: random.pick(SCALARS) };
}

function recordOf(random: SeededRandom, at: number): Record<string, unknown> & { id: string } {
  const record: Record<string, unknown> & { id: string } = { id: `r${at}` };
  for (const field of FIELDS) if (random.chance(0.75)) record[field] = valueOf(random);
  return record;
}

function conditionOf(random: SeededRandom): unknown {
  const choices = () => Array.from({ length: 1 + random.int(3) }, () => valueOf(random, random.chance(0.8) ? 2 : 1));
  switch (random.int(7)) {
    case 0:
      return random.pick(SCALARS);
    case 1:
      return { $eq: valueOf(random, 1) };
    case 2:
    case 3:
      return { $in: choices() };
    case 4:
      return { $in: choices(), $nin: [random.pick(SCALARS)] };
    case 5:
      return { [random.pick(['$gt', '$gte', '$lt', '$lte'])]: random.pick(SCALARS) };
    default:
      return { $nin: choices() };
  }
}

function filterOf(random: SeededRandom): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const fields = random.chance(0.3) ? 2 : 1;
  for (let at = 0; at < fields; at += 1) filter[random.pick(FIELDS)] = conditionOf(random);
  return filter;
}

it('files every query so that each record its filter matches finds it among the candidates', () => {
  const random = seededRandom(SEED);
  let matched = 0;
  let filed = 0;
  let skipped = 0;
  for (let at = 0; at < CASES; at += 1) {
    const filter = filterOf(random);
    const matches = compileFilter(filter);
    const required = requiredValues(filter);
    if (required) filed += 1;
    const index = new CandidateIndex<string>();
    index.add('query', required, []);
    for (let record = 0; record < RECORDS_PER_FILTER; record += 1) {
      const written = recordOf(random, record);
      const candidate = index.candidates(written, false).has('query');
      if (!candidate) skipped += 1;
      if (!matches(written)) continue;
      matched += 1;
      if (!candidate)
        throw new Error(
          `seed ${SEED}, case ${at}: ${JSON.stringify(filter)} matches ${JSON.stringify(written)}, which did not find it`,
        );
    }
  }
  // The cases are worth something only if many filters were filed and records were both matched and left out.
  expect(filed).toBeGreaterThan(CASES / 3);
  expect(matched).toBeGreaterThan(CASES);
  expect(skipped).toBeGreaterThan(CASES);
});
