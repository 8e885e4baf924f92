/**
 * The OpenAPI document's catalogue of error messages against the messages the code can send: every
 * message an error class is built with in apps/api and shared/ (the bodies the error handler
 * renders) is documented, and every documented message is one the code can send.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openApiDocument } from '../../apps/api/src/routes/docs/openapi.js';

const ERROR_CLASSES =
  'BadRequestError|AuthError|NotFoundError|RateLimitedError|UnavailableError|NotReadyError|MethodNotAllowedError|PreconditionFailedError|ConflictError';
/**
 * `new XError('literal'`, `new XError(\`template ${...}\``, `new XError(CONSTANT`, or the error
 * handler's own `message: '...'` for an unknown error.
 */
const THROWN = new RegExp(
  `(?:new (?:${ERROR_CLASSES})\\(\\s*|status: \\d{3}, message: )(?:'([^']*)'|\`([^\`]*)\`|([A-Z_][A-Z0-9_]*)\\b)`,
  'g',
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A string constant declared in the file or exported by any source file, by name. */
function constantValue(name: string, files: readonly string[]): string | undefined {
  const declared = new RegExp(`const ${name} = '([^']*)'`);
  for (const file of files) {
    const found = declared.exec(readFileSync(file, 'utf8'));
    if (found) return found[1];
  }
  return undefined;
}

/** What the code can send: each message as a pattern (a template's `${...}` matches any text). */
function codeMessages(): { where: string; pattern: RegExp; text: string }[] {
  const files = [...sourceFiles('apps/api/src'), ...sourceFiles('shared')];
  const out: { where: string; pattern: RegExp; text: string }[] = [];
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(THROWN)) {
      const [, literal, template, constant] = match;
      const text = literal ?? template ?? constantValue(constant!, files);
      expect(text, `${file}: the value of ${constant}`).to.be.a('string');
      const source = text!
        .split(/\$\{[^}]*\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+');
      out.push({ where: file, pattern: new RegExp(`^${source}$`), text: text! });
    }
  }
  return out;
}

/** Every message the document names: each error example's body, and the quoted ones of its description. */
function documentedMessages(): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const { value } = node as { value?: { error?: unknown } };
    if (typeof value?.error === 'string') found.add(value.error);
    Object.values(node).forEach(walk);
  };
  walk(openApiDocument.paths);
  // Quoted messages of the description (`{ "error": string }` names the field, not a message).
  for (const [, quoted] of (openApiDocument.info.description ?? '').matchAll(/ answers? \d{3} "([^"]+)"/g)) found.add(quoted!);
  return found;
}

describe('OpenAPI error catalogue', () => {
  it('documents every message the code can send', () => {
    const documented = [...documentedMessages()];
    const missing = codeMessages().filter(({ pattern }) => !documented.some((message) => pattern.test(message)));
    expect(missing.map(({ where, text }) => `${where}: ${text}`)).to.deep.equal([]);
  });

  it('documents no message the code cannot send', () => {
    const sent = codeMessages();
    const stale = [...documentedMessages()].filter((message) => !sent.some(({ pattern }) => pattern.test(message)));
    expect(stale).to.deep.equal([]);
  });

  it('lists the readiness answer for an empty user store and the 400 for a bad percent-encoding', () => {
    const documented = documentedMessages();
    expect([...documented].some((message) => message.startsWith('Not ready: the user store is empty'))).to.equal(true);
    expect(documented.has('Invalid URL encoding')).to.equal(true);
  });
});
