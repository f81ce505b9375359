import { parseCsvRecords } from '@/emulator/records/csv';
import { loginToken, SEEDED_ACCOUNTS } from '@/tests/support/emulator';

import { entityPath, suiteEmulator, type Json } from '../api';

/** CSV import on csv-parse: RFC 4180 cases, and a header row cannot reach a record's prototype. */

it('parses quoted commas, doubled quotes, line breaks, a BOM and CRLF', () => {
  const csv = '\uFEFFname,age,zip,note\r\n"Smith, Jo",40,01234,"said ""hi""\nthen left"\r\n\r\nLee,7,,\r\n';
  expect(parseCsvRecords(csv)).toEqual([
    { name: 'Smith, Jo', age: 40, zip: '01234', note: 'said "hi"\nthen left' },
    { name: 'Lee', age: 7 },
  ]);
});

it('keeps a quote inside an unquoted cell as text, and refuses ragged rows and open quotes', () => {
  expect(parseCsvRecords('a,b\n5" tall,true\n')).toEqual([{ a: '5" tall', b: true }]);
  expect(() => parseCsvRecords('a,b\n1,2,3\n')).toThrow('CSV row 2 has 3 cells, the header has 2');
  expect(() => parseCsvRecords('a\n"open\n')).toThrow('unterminated quoted field');
});

it('turns a __proto__ column into an own key, never a prototype', () => {
  const [record] = parseCsvRecords('__proto__,name\n{"polluted":true},x\n');
  expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  expect(Object.keys(record ?? {})).toEqual(['__proto__', 'name']);
  expect(({} as Json).polluted).toBeUndefined();
});

describe('over HTTP', () => {
  const suite = suiteEmulator();

  it('refuses a CSV whose header names __proto__ and stores nothing', async () => {
    const token = await loginToken(suite.emulator, 'coming-soon', SEEDED_ACCOUNTS.user.email);
    const form = new FormData();
    form.append('file', new File(['name,__proto__\nx,{"role":"admin"}\n'], 'evil.csv', { type: 'text/csv' }));
    const imported = await suite.api('POST', entityPath('coming-soon', 'Person', '/import'), { body: form, token });
    expect(imported.status).toBe(400);
    expect(imported.body).toMatchObject({ code: 'invalid_field_name' });
    expect((await suite.api<Json[]>('GET', entityPath('coming-soon', 'Person'), { token })).body).toEqual([]);
  });
});
