/**
 * Many server-sent-events clients in one process: raw TCP sockets (an EventSource or undici per
 * client would cost the load generator more than the server), driven over IPC by the
 * orchestrator. `connect` opens them in batches (the listen backlog is 511); `arm` starts timing:
 * each socket records when it next receives a `trending` event; `collect` returns those times.
 */
import { connect, type Socket } from 'node:net';

type Command =
  | { id: number; op: 'connect'; port: number; path: string; count: number }
  | { id: number; op: 'arm' }
  | { id: number; op: 'collect' }
  | { id: number; op: 'close' };

interface Client {
  socket: Socket;
  ok: boolean;
  tail: string;
  /** Arrival of the first trending event since `arm` (epoch ms, sub-ms precision). */
  arrivedAt: number | undefined;
}

const clients: Client[] = [];
let armed = false;
const epochNow = () => performance.timeOrigin + performance.now();

function open(port: number, path: string): Promise<Client> {
  return new Promise((resolve) => {
    const client: Client = { socket: connect(port, '127.0.0.1'), ok: false, tail: '', arrivedAt: undefined };
    client.socket.setEncoding('latin1');
    client.socket.on('error', () => {});
    client.socket.once('connect', () => client.socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`));
    client.socket.on('data', (chunk: string) => {
      const text = client.tail + chunk;
      if (!client.ok) {
        if (text.startsWith('HTTP/1.1 200')) client.ok = true;
        resolve(client);
      }
      if (armed && client.arrivedAt === undefined && text.includes('event: trending')) client.arrivedAt = epochNow();
      client.tail = text.slice(-32);
    });
    client.socket.once('close', () => resolve(client));
  });
}

process.on('message', (command: Command) => {
  void (async () => {
    switch (command.op) {
      case 'connect': {
        for (let opened = 0; opened < command.count;) {
          const batch = Math.min(250, command.count - opened);
          clients.push(...(await Promise.all(Array.from({ length: batch }, () => open(command.port, command.path)))));
          opened += batch;
        }
        const ok = clients.filter((c) => c.ok && !c.socket.destroyed).length;
        process.send?.({ id: command.id, result: { ok, attempted: clients.length } });
        return;
      }
      case 'arm':
        for (const client of clients) client.arrivedAt = undefined;
        armed = true;
        process.send?.({ id: command.id, result: {} });
        return;
      case 'collect': {
        armed = false;
        const arrivals = clients.filter((c) => c.ok).map((c) => c.arrivedAt ?? null);
        process.send?.({ id: command.id, result: { arrivals, open: clients.filter((c) => !c.socket.destroyed).length } });
        return;
      }
      case 'close':
        for (const client of clients.splice(0)) client.socket.destroy();
        process.send?.({ id: command.id, result: {} });
        return;
    }
  })();
});
process.send?.({ ready: true });
