import { expect } from 'chai';
import type { z } from 'zod';
import { positiveIntegerQuery, TickerParam, UsernameParam } from '../../shared/identifiers.js';

/** The parsed value, or null where the schema refuses it (the API answers 400). */
const parsed = <T>(schema: z.ZodType<T>, raw: unknown): T | null => {
  const result = schema.safeParse(raw);
  return result.success ? result.data : null;
};
const parseUsername = (raw: string) => parsed(UsernameParam, raw);
const parseTicker = (raw: string) => parsed(TickerParam, raw);
const parsePositiveInteger = (raw: string | string[] | undefined, fallback: number) => {
  const value = parsed(positiveIntegerQuery(fallback), raw);
  return value === null ? null : (value ?? fallback);
};

describe('identifier parsing', () => {
  it('usernames: drops one leading @, lower-cases, accepts 1-15 of [A-Za-z0-9_]', () => {
    expect(parseUsername('@CryptoKoala')).to.equal('cryptokoala');
    expect(parseUsername('a')).to.equal('a');
    expect(parseUsername('abc_DEF_123_xyz')).to.equal('abc_def_123_xyz');
    for (const bad of ['', '@', '@@x', 'sixteen_chars_xx', 'has-dash', 'sp ace', 'émile', 'a.b']) {
      expect(parseUsername(bad), bad).to.equal(null);
    }
  });

  it('tickers: drops one leading $, upper-cases, accepts 1-20 of [A-Za-z0-9]', () => {
    expect(parseTicker('$sol')).to.equal('SOL');
    expect(parseTicker('Pepe')).to.equal('PEPE');
    expect(parseTicker('A'.repeat(20))).to.equal('A'.repeat(20));
    for (const bad of ['', '$', '$$SOL', 'A'.repeat(21), 'SO-L', 'so l', 'ÉTH']) expect(parseTicker(bad), bad).to.equal(null);
  });

  it('query numbers: positive decimal integers only, default when absent', () => {
    expect(parsePositiveInteger(undefined, 20)).to.equal(20);
    expect(parsePositiveInteger('7', 20)).to.equal(7);
    expect(parsePositiveInteger('007', 20)).to.equal(7);
    for (const bad of ['', '0', '-1', '2.5', '1e3', 'abc', ' 5', '0x10', '9999999999999999']) {
      expect(parsePositiveInteger(bad, 20), bad).to.equal(null);
    }
    expect(parsePositiveInteger(['1', '2'], 20)).to.equal(null);
  });
});
