/**
 * (a) The Node ceiling: node:http answering each captured URL with its bytes from a Map (and
 * 304 on a matching If-None-Match). No framework, no middleware, no logging.
 */
import { createServer } from 'node:http';
import { loadBodies, targetArgs } from './bodies.js';

const { port, bodiesFile } = targetArgs();
const bodies = loadBodies(bodiesFile);

const server = createServer((req, res) => {
  const served = bodies.get(req.url ?? '');
  if (!served) {
    res.statusCode = 404;
    res.end();
    return;
  }
  if (req.headers['if-none-match'] === served.etag) {
    res.writeHead(304, { etag: served.etag });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': served.body.length });
  res.end(served.body);
});
server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
// A normal exit on SIGTERM, so a --cpu-prof profile gets written.
process.once('SIGTERM', () => process.exit(0));
