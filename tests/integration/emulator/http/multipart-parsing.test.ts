import { suiteEmulator } from '../api';

/** Multipart bodies are parsed while they stream (busboy): malformed and part-flooding bodies are refused. */

const suite = suiteEmulator();
const FUNCTION = '/apps/coming-soon/integration-endpoints/Core/SendEmail';

it('refuses a multipart body without a boundary, or with a broken one, with 400', async () => {
  const noBoundary = await suite.api('POST', FUNCTION, {
    body: 'x',
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  expect(noBoundary.status).toBe(400);
  expect(noBoundary.body).toMatchObject({ code: 'malformed_multipart' });
  const truncated = await suite.api('POST', FUNCTION, {
    body: '--b\r\nContent-Disposition: form-data; name="to"\r\n\r\nx@example.com',
    headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
  });
  expect(truncated.status).toBe(400);
  expect(truncated.body).toMatchObject({ code: 'malformed_multipart' });
  expect(suite.emulator.outbox()).toEqual([]);
});

it('refuses a body of more parts than the cap with 413 and changes nothing', async () => {
  const form = new FormData();
  for (let index = 0; index < 1200; index += 1) form.append(`p${index}`, 'x');
  const flood = await suite.api('POST', FUNCTION, { body: form });
  expect(flood.status).toBe(413);
  expect(flood.body).toMatchObject({ code: 'too_many_parts' });
  expect(suite.emulator.outbox()).toEqual([]);
});

it('keeps non-ASCII file and field names and the parts in order', async () => {
  const form = new FormData();
  form.append('to', 'umlaut@example.com');
  form.append('subject', 'Grüße');
  form.append('body', 'Schöne Grüße aus Köln');
  const sent = await suite.api('POST', FUNCTION, { body: form });
  expect(sent.status).toBe(200);
  expect(suite.emulator.outbox()).toEqual([
    expect.objectContaining({ to: 'umlaut@example.com', subject: 'Grüße', body: 'Schöne Grüße aus Köln' }),
  ]);
});
