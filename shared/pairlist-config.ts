/**
 * PAIRLIST_SYMBOLS: tickers an exchange spells otherwise (`PEPE=1000PEPE,SHIB=1000SHIB`), for
 * GET /api/market/pairlist's pairs. Parsed once with the rest of the configuration.
 */
import { z } from 'zod';
import { got } from './config-vars.js';

/** A ticker as the index spells it, or a base asset as an exchange does: letters and digits. */
const SYMBOL = /^[A-Za-z0-9]{1,20}$/;

/** `TICKER=BASE,...`, each side 1-20 letters or digits; the tickers upper-cased, the bases kept as written. */
export const PAIRLIST_SYMBOLS_VAR: z.ZodType<Readonly<Record<string, string>>, string> = z
  .string()
  .refine(
    (raw) =>
      raw.split(',').every((pair) => {
        const [ticker, base, extra] = pair.split('=').map((part) => part.trim());
        return extra === undefined && SYMBOL.test(ticker ?? '') && SYMBOL.test(base ?? '');
      }),
    got('must be a comma-separated list of TICKER=BASE (letters and digits, such as PEPE=1000PEPE)'),
  )
  .transform((raw) =>
    Object.freeze(
      Object.fromEntries(
        raw.split(',').map((pair) => {
          const [ticker = '', base = ''] = pair.split('=').map((part) => part.trim());
          return [ticker.toUpperCase(), base];
        }),
      ),
    ),
  );
