/**
 * The vocabulary of the read table (reads.ts): what a read says of itself, and what each kind of
 * answer (`serve`) needs. Apart from the table, so the modules that contribute entries to it
 * (callers-read-specs.ts) and those derived from it import no cycle.
 */
import type { z } from 'zod';
import type { BaseListKind } from '../../../../shared/snapshot-kinds.js';
import type { HistorySeries } from './history-service.js';

/** An error message a read can answer, and when: the OpenAPI document lists each (message, condition). */
export type ErrorCase = readonly [message: string, condition: string];

/** What the OpenAPI document says of a read; the statuses every read shares are added there. */
export interface ReadDoc {
  summary: string;
  description: string;
  /** The 200's description. */
  ok: string;
  /** Statuses specific to the read. 503 replaces "Data temporarily unavailable" (the snapshot's). */
  errors: Partial<Record<400 | 404 | 429 | 503, readonly ErrorCase[]>>;
}

/** The MCP tool that mirrors a read (mcp/tools.ts). */
export interface ToolDoc {
  name: string;
  title: string;
  description: string;
}

/** What the API says of a list kind: its body's schema, its read's prose and its MCP tool. */
export interface ListReadDoc {
  response: z.ZodType;
  doc: Omit<ReadDoc, 'errors'>;
  tool: ToolDoc;
}

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** A read's operationId in /openapi.json, and the REST operation its MCP tool names: the read's kebab-case name in camelCase. */
export const operationIdOf = <N extends string>(name: N) =>
  name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<N>;

interface ReadBase extends ReadDoc {
  /** The route pattern (Koa's): `:name` is one path segment, decoded. */
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  response: z.ZodType;
  /** Charges upstream lookups to the client's budget: answers carry the RateLimit fields. */
  rateLimited?: boolean;
  /** The MCP tool mirroring the read, if any. */
  tool?: ToolDoc;
}

/** A read of the table: what its kind of answer (`serve`) needs is required of it, checked when the table compiles. */
export type ReadSpec =
  | (ReadBase & {
      serve: 'list';
      /** The list kind's snapshot it answers (its 24 h list; `?window=` picks another). */ snapshot: BaseListKind;
    })
  | (ReadBase & { serve: 'news-page' })
  | (ReadBase & { serve: 'token-record' })
  | (ReadBase & { serve: 'username-stats' })
  | (ReadBase & { serve: 'history'; /** The series read per token. */ series: HistorySeries })
  | (ReadBase & { serve: 'mindshare' })
  | (ReadBase & { serve: 'token-mindshare' })
  | (ReadBase & { serve: 'token-callers' })
  | (ReadBase & { serve: 'callers' })
  | (ReadBase & { serve: 'stories' })
  | (ReadBase & { serve: 'story' });

/** How the API answers a read (read-resolvers.ts has one resolver per value). */
export type ServeKind = ReadSpec['serve'];

/** The reads one resolver answers. */
export type ReadOf<S extends ServeKind> = Extract<ReadSpec, { serve: S }>;
