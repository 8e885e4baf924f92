/**
 * CORS in the OpenAPI document: http/cors.ts sets `Access-Control-Allow-Origin: *` on every
 * answer under its public prefixes before anything else can answer (errors included), so the
 * header is declared on every response of those operations, from the same list of prefixes.
 * Other routes send no CORS header and declare none.
 */
import type { oas31 } from 'zod-openapi';
import { PUBLIC_PREFIXES } from '../../market/reads.js';
import { ALLOW_ORIGIN, ALLOW_ORIGIN_503, OPERATION_METHODS } from './openapi-headers.js';

/** `generated` with the CORS header on every response of a public read (mutated and returned). */
export function documentCors<Document extends object>(generated: Document): Document {
  // zod-openapi's own output type and its exported oas31 types differ in details only.
  const document = generated as oas31.OpenAPIObject;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix))) continue;
    for (const method of OPERATION_METHODS) {
      const responses = item[method]?.responses;
      if (!responses) continue;
      // A copy: the generator may share one response object between operations of other routes.
      for (const [status, response] of Object.entries(responses)) {
        const answer = response as oas31.ResponseObject;
        const origin = status === '503' ? ALLOW_ORIGIN_503 : ALLOW_ORIGIN;
        responses[status] = { ...answer, headers: { 'Access-Control-Allow-Origin': origin, ...answer.headers } };
      }
    }
  }
  return generated;
}
