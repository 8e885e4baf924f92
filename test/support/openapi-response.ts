/**
 * Checks one HTTP response against the OpenAPI document: the status is listed for the
 * operation, every listed header is present and matches its schema, no header outside the
 * document and plain HTTP plumbing is sent, and the body has the listed media type and matches
 * its schema. Shared by every integration test (through support/http.ts) and the property tests.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { oas31 } from 'zod-openapi';
import { openApiDocument } from '../../apps/api/src/routes/docs/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ObservedResponse {
  method: string;
  /** The request path, with its query string or without. */
  url: string;
  status: number;
  headers: Headers;
  /** Decoded body bytes. */
  body: Buffer;
}

/** Headers every response may carry without the document naming them: HTTP plumbing. */
const PLUMBING = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'vary',
  'date',
  'connection',
  'keep-alive',
  'x-request-id',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'content-security-policy',
  // On every answer (apps/api/src/server.ts).
  'x-content-type-options',
]);

export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: { pattern: RegExp; path: string; item: oas31.PathItemObject }[];

  constructor(readonly document: oas31.OpenAPIObject) {
    addFormats(this.ajv);
    // The whole document under one id, so `#/components/schemas/...` references resolve.
    this.ajv.addSchema(document, 'openapi.json');
    this.routes = Object.entries(document.paths ?? {}).map(([path, item]) => ({
      path,
      item,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The operation a request reaches, or undefined for paths and methods the document does not describe. */
  operation(method: string, url: string): { path: string; operation: oas31.OperationObject } | undefined {
    const path = new URL(url, 'http://x').pathname;
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    const operation = route?.item[method.toLowerCase() as 'get' | 'post'];
    return route && operation ? { path: route.path, operation } : undefined;
  }

  /** Every way the response departs from the document (empty when it conforms). */
  violations(response: ObservedResponse): string[] {
    const found = this.operation(response.method, response.url);
    if (!found) return [];
    const where = `${response.method} ${found.path} -> ${response.status}`;
    const documented = found.operation.responses?.[String(response.status)] as oas31.ResponseObject | undefined;
    if (!documented) return [`${where}: status ${response.status} is not documented`];
    const problems: string[] = [];
    const pointer = `openapi.json#/paths/${escape(found.path)}/${response.method.toLowerCase()}/responses/${response.status}`;

    const listed = Object.entries((documented.headers ?? {}) as Record<string, oas31.HeaderObject>);
    for (const [name, header] of listed) {
      const value = response.headers.get(name);
      // Stricter than OpenAPI's default: a listed header is expected unless marked `required: false`.
      if (value === null && header.required === false) continue;
      if (value === null) {
        problems.push(`${where}: header ${name} is documented but missing`);
        continue;
      }
      const typed = (header.schema as oas31.SchemaObject | undefined)?.type === 'integer' ? Number(value) : value;
      const check = this.validator(`${pointer}/headers/${escape(name)}/schema`);
      if (!check(typed)) problems.push(`${where}: header ${name}: ${value} ${this.ajv.errorsText(check.errors)}`);
    }
    const listedNames = new Set(listed.map(([name]) => name.toLowerCase()));
    for (const [name] of response.headers) {
      if (!PLUMBING.has(name) && !listedNames.has(name)) problems.push(`${where}: header ${name} is not documented`);
    }

    const content = (documented.content ?? {}) as Record<string, oas31.MediaTypeObject>;
    const types = Object.keys(content);
    if (types.length === 0) {
      if (response.body.length > 0) problems.push(`${where}: a body is sent where the document lists none`);
      return problems;
    }
    const sentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim();
    const mediaType = types.find((type) => type.split(';')[0]?.trim() === sentType);
    if (!mediaType) return [...problems, `${where}: content type ${sentType} is not one of ${types.join(', ')}`];
    const text = response.body.toString('utf8');
    let body: unknown = text;
    if (sentType === 'application/json') {
      try {
        body = JSON.parse(text);
      } catch {
        return [...problems, `${where}: the body is not JSON`];
      }
    }
    const check = this.validator(`${pointer}/content/${escape(mediaType)}/schema`);
    if (!check(body)) problems.push(`${where}: body ${this.ajv.errorsText(check.errors, { dataVar: 'body' })}`);
    return problems;
  }

  private validator(ref: string): ValidateFunction {
    let check = this.compiled.get(ref);
    if (!check) {
      check = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, check);
    }
    return check;
  }
}

/** A JSON pointer segment, as a URI fragment. */
function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

/** The document the API serves, as JSON (what /openapi.json sends). */
export const servedDocument = JSON.parse(JSON.stringify(openApiDocument)) as oas31.OpenAPIObject;
export const responseValidator = new ResponseValidator(servedDocument);

/** Throws, failing the test, when the response departs from the document. */
export function assertDocumented(response: ObservedResponse): void {
  const problems = responseValidator.violations(response);
  if (problems.length > 0) throw new Error(`response departs from /openapi.json:\n  ${problems.join('\n  ')}`);
}
