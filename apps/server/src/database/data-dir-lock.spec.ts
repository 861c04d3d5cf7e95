import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'sc-lock-')), 'pglite');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('refuses a second holder while the first is alive and allows it after release', () => {
    const release = lockDataDir(dir);
    expect(existsSync(`${dir}.lock`)).toBe(true);
    expect(() => lockDataDir(dir)).toThrow(`in use by another server (pid ${process.pid})`);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over a lock left by a process that no longer exists', () => {
    writeFileSync(`${dir}.lock`, '2147483646');
    const release = lockDataDir(dir);
    release();
  });
});
