/** Listening and graceful stopping, shared by main() and the tests. */
import { createServer, type RequestListener, type Server } from 'node:http';
import { installClientErrorHandler } from './http/client-errors.js';

export async function startWebServer(listener: RequestListener, port: number, host?: string): Promise<Server> {
  const server = createServer(listener);
  installClientErrorHandler(server);
  // Behind Heroku's router (55 s idle) keep-alive sockets must outlive the router's.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
export async function stopWebServer(server: Server, graceMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs).unref();
  await closed;
  clearTimeout(timer);
}
