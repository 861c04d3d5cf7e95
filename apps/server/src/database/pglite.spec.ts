import { Logger } from '@nestjs/common';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPgliteTemplate } from '../../test/support/database-template';
import { findLoosePermissions } from './data-dir-permissions';
import { openPglite } from './pglite';

describe('embedded database files', () => {
  let root: string;
  let warnings: unknown[][];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sc-pglite-'));
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  async function openAndClose(pgliteDir: string): Promise<void> {
    const { db, release } = await openPglite(pgliteDir);
    await db.query('CREATE TABLE IF NOT EXISTS t (id int)');
    await db.close();
    release();
  }

  it('creates the data directory 0700 with every file 0600, and warns about nothing', async () => {
    const dataDir = join(root, 'data');
    await openAndClose(join(dataDir, 'pglite'));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'pglite')).mode & 0o777).toBe(0o700);
    expect(findLoosePermissions([dataDir], [join(dataDir, 'pglite')])).toEqual({ directories: [], fileCount: 0, examples: [] });
    expect(statSync(join(dataDir, 'pglite', 'postgresql.conf')).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('warns once at start when an existing data directory or its files are looser', async () => {
    const dataDir = join(root, 'data');
    const pgliteDir = join(dataDir, 'pglite');
    // An existing database: a copy of the run's template (test/unit-global-setup.cjs; starting on it skips PGlite's
    // initdb, seconds of CPU), private as openPglite leaves it, then one directory and one file opened up.
    mkdirSync(dataDir);
    if (!copyPgliteTemplate(pgliteDir)) throw new Error('no template database: run with apps/server/jest.config.cjs (its global setup makes it)');
    expect(findLoosePermissions([], [pgliteDir])).toEqual({ directories: [], fileCount: 0, examples: [] });
    chmodSync(pgliteDir, 0o755);
    chmodSync(join(pgliteDir, 'postgresql.conf'), 0o644);
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'secret.key'), 'x');
    chmodSync(join(dataDir, 'secret.key'), 0o644);
    await openAndClose(pgliteDir);
    expect(warnings).toHaveLength(1);
    const [fields, message] = warnings[0] as [Record<string, unknown>, string];
    expect(fields).toMatchObject({ dataDir, looseDirectories: [dataDir, pgliteDir], looseFileCount: 2, looseFileExamples: [join(dataDir, 'secret.key'), join(pgliteDir, 'postgresql.conf')] });
    expect(message).toContain(`chmod -R go-rwx ${dataDir}`);
    // The operator's own directory mode is reported, not changed; the database files are made private.
    expect(statSync(dataDir).mode & 0o777).toBe(0o755);
    expect(findLoosePermissions([], [pgliteDir]).fileCount).toBe(0);
  }, 60_000);
});
