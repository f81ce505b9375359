/**
 * The floor under benchmark (a)'s CPU per write (http-floor.ts): Node's own HTTP server doing the
 * least a create can do (read the JSON body, parse it, answer it back with an id and two dates),
 * with no emulator code. Prints the URL it listens on, as the emulator does.
 *
 * The same process also holds socket.io connections (the package and version the emulator runs, at
 * its defaults), on a port of its own so the HTTP server stays bare (a GET answers that port's URL):
 * a create sent with `?frames=N` is then also written, after its answer, as N
 * `update_model` packets to the next N connected sockets in turn, each with its own query id and
 * sequence number, written to the connection as the emulator writes a live query's delivery
 * (emulator/realtime/live-query-delivery.ts). That is the least a server must do to tell N watching
 * clients of a write: the I/O under a watched write's CPU.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const sockets = [];
const socketServer = createServer();
const io = new Server(socketServer, { serveClient: false });
io.on('connection', (socket) => {
  sockets.push(socket);
  socket.on('disconnect', () => sockets.splice(sockets.indexOf(socket), 1));
});
const socketsUrl = () => `http://127.0.0.1:${socketServer.address().port}`;

const server = createServer((request, response) => {
  if (request.method === 'GET') return void response.end(socketsUrl());
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
    const frames = Number(new URL(request.url ?? '/', 'http://floor').searchParams.get('frames') ?? 0);
    if (frames > 0) deliver(record, body, now, frames);
  });
});

let next = 0;
let seq = 0;
/** How `text` reads inside a JSON string. */
const insideString = (text) => JSON.stringify(text).slice(1, -1);

/** The record as an added row of a watched window, sent to `frames` sockets (one frame each). */
function deliver(record, json, timestamp, frames) {
  const head = insideString(
    `{"type":"create","change_type":"added","id":${JSON.stringify(record.id)},"data":${json},"timestamp":"${timestamp}","query_id":`,
  );
  const tail = insideString(`,"remove":[],"put":[{"index":0,"record":${json}}]}`);
  for (let at = 0; at < frames && sockets.length > 0; at += 1) {
    const socket = sockets[next % sockets.length];
    next += 1;
    seq += 1;
    const data = `${head}${insideString(JSON.stringify(`q${next % 20}`))},\\"seq\\":${seq}${tail}`;
    socket.conn.write(`2["update_model",{"room":"floor","data":"${data}"}]`);
  }
}

socketServer.listen(0, '127.0.0.1', () =>
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`)),
);
