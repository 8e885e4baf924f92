/**
 * A loopback HTTP server standing in for one provider (docs/providers.md): it records every
 * request (path, query, headers) and answers from its routes, unless a test scripted the next
 * answers of a path (an error, a 429 with a reset header, a slow or malformed body).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
}

export interface FixtureAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is (a malformed body). */
  body?: unknown;
  /** Wait this long before answering (a slow provider). */
  delayMs?: number;
}

/** A route: path pattern -> answer from the request (path parameters by name). */
export type Route = (request: RecordedRequest, params: Record<string, string>) => FixtureAnswer;

export interface FixtureServer {
  url: string;
  requests: RecordedRequest[];
  /** The requests of one path prefix. */
  requestsTo(prefix: string): RecordedRequest[];
  /** The next answers of paths starting with `prefix`, used once each, before the routes. */
  script(prefix: string, ...answers: FixtureAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFixtureServer(
  routes: Readonly<Record<string, Route>>,
  authorize: (headers: IncomingHttpHeaders) => FixtureAnswer | undefined,
  basePath = '',
): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  let scripted: { prefix: string; answer: FixtureAnswer }[] = [];
  const compiled = Object.entries(routes).map(([pattern, route]) => {
    const names: string[] = [];
    const regex = new RegExp(`^${basePath}${pattern.replace(/:([a-z]+)/gi, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    return { regex, names, route };
  });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const recorded: RecordedRequest = { path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers };
    requests.push(recorded);
    const index = scripted.findIndex((entry) => url.pathname.startsWith(entry.prefix));
    let answer: FixtureAnswer;
    if (index >= 0) {
      answer = scripted[index]!.answer;
      scripted.splice(index, 1);
    } else {
      answer = authorize(req.headers) ?? route(recorded);
    }
    const send = () => {
      if (res.destroyed) return;
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  });

  function route(request: RecordedRequest): FixtureAnswer {
    for (const { regex, names, route: handler } of compiled) {
      const match = regex.exec(request.path);
      if (match) return handler(request, Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')])));
    }
    return { status: 404, body: { error: `no fixture for ${request.path}` } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    requestsTo: (prefix) => requests.filter((request) => request.path.startsWith(`${basePath}${prefix}`)),
    script(prefix, ...answers) {
      scripted.push(...answers.map((answer) => ({ prefix: `${basePath}${prefix}`, answer })));
    },
    reset() {
      requests.length = 0;
      scripted = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
