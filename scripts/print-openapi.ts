/** Prints the OpenAPI document the API serves at /openapi.json (for openapi-typescript and CI's validators). */
import { openApiDocument } from '../apps/api/src/routes/docs/openapi.js';

process.stdout.write(`${JSON.stringify(openApiDocument, null, 2)}\n`);
