import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/**
 * Embedded PostgreSQL has no server process guarding its files: two servers on one data directory would
 * corrupt it. The first one holds `<dir>.lock` (its pid) next to the directory; a second start fails with
 * a clear message, and a lock left by a crashed process (pid gone) is taken over. Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new DataDirInUseError(dir, holder);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database directory ${dir}.`);
}

/** Another live process (normally the running server) holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number,
  ) {
    super(`The embedded database in ${dir} is in use by another server (pid ${holderPid}). Stop it first, or use another SERVICE_DATA_DIR.`);
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
