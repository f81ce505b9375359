/**
 * The floor under benchmark (a)'s CPU per write (http-floor.ts): Node's own HTTP server doing the
 * least a create can do (read the JSON body, parse it, answer it back with an id and two dates),
 * with no emulator code. Prints the URL it listens on, as the emulator does.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const now = new Date().toISOString();
    const record = {
      ...JSON.parse(Buffer.concat(chunks).toString('utf8')),
      id: randomUUID(),
      created_date: now,
      updated_date: now,
    };
    const body = JSON.stringify(record);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
