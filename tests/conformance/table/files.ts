/** Files and FormData where the reference loses them. */
import { answerWith, copy, record, rows, textFile } from './helpers';

const callerForm = () => {
  const form = new FormData();
  form.append('file', textFile('scan.pdf', '%PDF', 'application/pdf'));
  form.append('note', 'Rechnung März');
  return form;
};

/** What our side sends for `callerForm()`: the caller's parts, untouched. */
const CALLER_PARTS = [
  { name: 'file', fileName: 'scan.pdf', type: 'application/pdf', value: '%PDF' },
  { name: 'note', value: 'Rechnung März' },
];

const formPassesThrough = {
  id: 'formdata-passes-through',
  adjust(reference: Parameters<typeof copy>[0]) {
    // The reference rebuilds a FormData from Object.keys(form), which is empty: it sends no parts.
    const adjusted = copy(reference);
    for (const request of adjusted.requests) request.body = { multipart: CALLER_PARTS };
    return adjusted;
  },
};

export const fileRows = rows(
  {
    name: 'integrations: a FormData built by the caller',
    covers: ['integrations.*.*'],
    answer: answerWith({ file_url: 'https://files.example/scan.pdf' }),
    run: (client) => client.integrations.Core.UploadFile(callerForm() as unknown as { file: File }),
    deviation: formPassesThrough,
  },
  {
    name: 'functions: a FormData built by the caller',
    covers: ['functions.invoke'],
    answer: answerWith({ ok: true }),
    run: async (client) =>
      (await client.functions.invoke('ingest', callerForm() as unknown as Record<string, unknown>)).data,
    deviation: formPassesThrough,
  },
  {
    name: 'entities: create with a file sends multipart',
    covers: ['entities.*.create'],
    answer: answerWith(record('r1')),
    // Not Todo: base44/entities defines Todo, whose generated type has no attachment field.
    run: (client) =>
      client.entities.Receipt!.create({ title: 'Beleg', attachment: textFile('beleg.txt', 'Inhalt'), tags: ['a'] }),
    deviation: {
      id: 'files-in-entity-writes',
      adjust(reference) {
        // The reference serialises the File as JSON ({}), so the file never arrives.
        const adjusted = copy(reference);
        for (const request of adjusted.requests) {
          request.headers['content-type'] = 'multipart/form-data';
          request.body = {
            multipart: [
              { name: 'title', value: 'Beleg' },
              { name: 'attachment', fileName: 'beleg.txt', type: 'text/plain', value: 'Inhalt' },
              { name: 'tags', value: '["a"]' },
            ],
          };
        }
        return adjusted;
      },
    },
  },
);
