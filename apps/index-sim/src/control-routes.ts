// The simulator's own /__sim/* endpoints (faults, stats, clock). Not part of the provider's
// API: they need no key, are never faulted and are not counted in the stats.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultsError, type Faults } from './faults.js';
import { BAD_REQUEST, BodyError, NOT_FOUND, readJson, reply, send } from './http.js';

/** What the control endpoints may do to a running simulator. */
export interface ControlPanel {
  faults(): Faults;
  /** Throws FaultsError on an invalid setting. */
  setFaults(input: unknown): void;
  clearFaults(): void;
  stats(): Record<string, number>;
  resetStats(): void;
  /** Throws RangeError unless ms is a finite number >= 0. */
  advanceClock(ms: number): void;
  clock(): { now: string; offsetMs: number };
}

export async function handleControl(req: IncomingMessage, res: ServerResponse, pathname: string, panel: ControlPanel): Promise<void> {
  const route = `${req.method ?? 'GET'} ${pathname}`;
  try {
    switch (route) {
      case 'GET /__sim/faults':
        return send(res, reply(200, panel.faults()));
      case 'PUT /__sim/faults':
        panel.setFaults(await readJson(req));
        return send(res, reply(200, panel.faults()));
      case 'DELETE /__sim/faults':
        panel.clearFaults();
        return send(res, reply(200, panel.faults()));
      case 'GET /__sim/stats':
        return send(res, reply(200, panel.stats()));
      case 'DELETE /__sim/stats':
        panel.resetStats();
        return send(res, reply(200, panel.stats()));
      case 'GET /__sim/clock':
        return send(res, reply(200, panel.clock()));
      case 'POST /__sim/clock': {
        const body = await readJson(req);
        const advanceMs = typeof body === 'object' && body !== null ? (body as { advanceMs?: unknown }).advanceMs : undefined;
        if (typeof advanceMs !== 'number') return send(res, BAD_REQUEST);
        panel.advanceClock(advanceMs);
        return send(res, reply(200, panel.clock()));
      }
      default:
        return send(res, NOT_FOUND);
    }
  } catch (error) {
    if (error instanceof FaultsError || error instanceof BodyError || error instanceof RangeError)
      return send(res, reply(400, { error: 'bad_request', message: error.message }));
    throw error;
  }
}
