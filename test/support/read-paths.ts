import type { ReadSpec } from '../../apps/api/src/market/read-spec.js';

/** The read's path with each `:param` filled from `values` (a read with a parameter no example names fails here). */
export function pathOf(read: ReadSpec, values: Readonly<Record<string, string>>): string {
  return read.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no example value for :${name} of ${read.path}: add one to the test's examples`);
    return encodeURIComponent(value);
  });
}

/** The read's MCP tool arguments: its path parameters from `values` (the tool's input follows the route's). */
export function toolArguments(read: ReadSpec, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(read.params?.shape ?? {}).map((param) => [param, values[param] ?? '']));
}
