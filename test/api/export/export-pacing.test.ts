/**
 * GET /api/export's pacing (apps/api/src/market/export-pacing.ts): the lines go out whole and
 * unchanged in chunks of about the chunk size, and every export of the process shares one byte
 * rate, so a chunk waits for the slot the ones before it left (on a clock the test moves).
 */
import { expect } from 'chai';
import { ExportPacer, pacedChunks } from '../../../apps/api/src/market/export-pacing.js';

const MB = 1024 * 1024;

describe('export pacing', () => {
  it('joins lines into chunks of at most the chunk size (a longer line alone), never splitting one, the text unchanged', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `{"kind":"news","n":${i},"pad":"${'x'.repeat(i * 7)}"}\n`);
    lines.splice(50, 0, `{"kind":"news","long":"${'y'.repeat(1500)}"}\n`);
    const source = () =>
      (async function* () {
        for (const line of lines) yield await Promise.resolve(line);
      })();
    const chunks: string[] = [];
    for await (const chunk of pacedChunks(
      source(),
      new ExportPacer(
        MB,
        () => 0,
        () => Promise.resolve(),
      ),
      1000,
    ))
      chunks.push(chunk);
    expect(chunks.join('')).to.equal(lines.join(''));
    expect(chunks.every((chunk) => chunk.endsWith('\n'))).to.equal(true);
    // Joined lines stay within the size (large strings wait for a major GC); a line longer than it goes alone.
    expect(chunks.filter((chunk) => chunk.length > 1000).every((chunk) => lines.includes(chunk))).to.equal(true);
    expect(chunks.filter((chunk) => chunk.length > 1000)).to.have.length.above(0);
    // Full chunks: each with the next line would have passed the size.
    const next = (chunk: string) => lines[lines.indexOf(chunk.slice(chunk.lastIndexOf('\n', chunk.length - 2) + 1)) + 1] ?? '';
    expect(chunks.slice(0, -1).every((chunk) => chunk.length + next(chunk).length > 1000)).to.equal(true);
  });

  it('makes each chunk wait for the rate, across exports, and saves no idle time for a burst', async () => {
    let clock = 0;
    const waits: number[] = [];
    const pacer = new ExportPacer(
      8 * MB,
      () => clock,
      (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    );
    await pacer.take(8 * MB);
    await pacer.take(4 * MB);
    // Another export's chunk queues behind both.
    await pacer.take(4 * MB);
    expect(waits).to.deep.equal([0, 1000, 1500]);
    clock = 60_000;
    await pacer.take(8 * MB);
    await pacer.take(8 * MB);
    expect(waits.slice(3)).to.deep.equal([0, 1000]);
  });
});
