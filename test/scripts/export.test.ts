/**
 * `npm run export` as a user runs it, against a stack's Redis: one Parquet file per kind and UTC
 * day, a manifest whose rows and SHA-256 match the files, and rows equal to GET /api/export's lines.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parquetReadObjects } from 'hyparquet';
import type { Manifest } from '../../scripts/parquet-export.js';
import { EXPORT_KINDS } from '../../shared/history/export-states.js';
import { http } from '../support/http.js';
import { startStack, whenReady, type Stack } from '../support/stack.js';
import { runTs, seedUser, tokenFor } from '../api/auth/helpers.js';

describe('npm run export: Parquet files per kind and UTC day, with a manifest', function () {
  this.timeout(60_000);
  let stack: Stack;
  let out: string;
  before(async () => {
    stack = await startStack();
    await whenReady(stack);
    out = mkdtempSync(join(tmpdir(), 'ms-export-'));
  });
  after(async () => {
    rmSync(out, { recursive: true, force: true });
    await stack?.close();
  });

  it('when run over the last day, then each file holds the states GET /api/export streams, and the manifest checks them', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const env = { ...process.env, ...stack.redisEnv, NODE_ENV: 'test' };
    const run = await runTs('scripts/export.ts', ['--from', from, '--to', to, '--format', 'parquet', '--out', out], { env });
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.kinds).to.deep.equal(EXPORT_KINDS);
    expect(manifest.files.length).to.be.within(EXPORT_KINDS.length, 2 * EXPORT_KINDS.length);

    await seedUser(stack, 'quant@example.com', 'correct-horse');
    const token = await tokenFor(stack, 'quant@example.com', 'correct-horse');
    const exported = (
      await http(`${stack.apiUrl}/api/export?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${token}` } })
    ).body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; id: string; state: unknown });
    const rows: { kind: string; id: string; cachedAt: Date; state: string }[] = [];
    for (const entry of manifest.files) {
      const bytes = readFileSync(join(out, entry.file));
      expect(createHash('sha256').update(bytes).digest('hex'), entry.file).to.equal(entry.sha256);
      const read = (await parquetReadObjects({
        file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      })) as typeof rows;
      expect(read, entry.file).to.have.length(entry.rows);
      expect(entry.file).to.equal(`${entry.kind}-${entry.day}.parquet`);
      rows.push(...read);
    }
    for (const kind of EXPORT_KINDS)
      expect(
        rows.filter((row) => row.kind === kind).map((row) => ({ kind: row.kind, id: row.id, state: JSON.parse(row.state) as unknown })),
        kind,
      ).to.deep.equal(exported.filter((line) => line.kind === kind).map(({ kind: k, id, state }) => ({ kind: k, id, state })));
  });

  it('when a value is wrong, then it exits 1 with one line naming it', async () => {
    const env = { ...process.env, ...stack.redisEnv, NODE_ENV: 'test' };
    const run = await runTs('scripts/export.ts', ['--from', 'yesterday', '--out', out], { env });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/^--from: an ISO 8601 date or date-time is required/);
    expect(run.stderr.trimEnd().split('\n')).to.have.length(1);
  });
});
