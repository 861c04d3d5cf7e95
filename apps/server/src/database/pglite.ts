import { Logger } from '@nestjs/common';
import { dirname, join } from 'node:path';
import { findLoosePermissions, makePrivateDir, restrictTree } from './data-dir-permissions';
import { lockDataDir } from './data-dir-lock';

/**
 * Opens embedded PostgreSQL. PGlite is ESM-only, so it is loaded with a native dynamic import (kept as
 * `import()` by the node16 module setting); `dataDir: null` keeps the database in memory (tests).
 * A directory is locked against a second server; call `release` after closing the database.
 *
 * Files on disk are the service user's alone: the directories are created 0700, and after PGlite starts (and
 * when it is closed) every file below the PGlite directory loses its group and other bits. A data directory
 * that is already looser (an older version, a hand-made volume) is reported once with a warning; its own mode
 * is left as the operator set it.
 */
export async function openPglite(dataDir: string | null) {
  const { PGlite: PGliteClass, types } = await import('@electric-sql/pglite');
  let release: () => void = () => undefined;
  if (dataDir) {
    warnAboutLoosePermissions(dataDir);
    makePrivateDir(dataDir);
    const unlock = lockDataDir(dataDir);
    release = () => {
      // The lock must go even if tightening a mode fails, or the next start would find the directory "in use".
      try {
        restrictTree(dataDir);
      } finally {
        unlock();
      }
    };
  }
  // PGlite sends JS booleans as 't'/'f' text; TypeORM's postgres driver expects TRUE/FALSE.
  const serializeBoolean = (value: unknown) => (value === true || value === 'true' ? 'TRUE' : value === false || value === 'false' ? 'FALSE' : String(value));
  try {
    const db = await PGliteClass.create(dataDir ?? 'memory://', { serializers: { [types.BOOL]: serializeBoolean } });
    if (dataDir) restrictTree(dataDir);
    return { db, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** The data directory (SERVICE_DATA_DIR) holds the PGlite directory, its lock and secret.key. */
function warnAboutLoosePermissions(pgliteDir: string): void {
  const dataDir = dirname(pgliteDir);
  const loose = findLoosePermissions([dataDir, join(dataDir, 'secret.key')], [pgliteDir]);
  if (loose.directories.length === 0 && loose.fileCount === 0) return;
  new Logger('Database').warn(
    { dataDir, looseDirectories: loose.directories, looseFileCount: loose.fileCount, looseFileExamples: loose.examples },
    `The data directory ${dataDir} can be read by other users: ${loose.directories.length} directories and ${loose.fileCount} files allow group or other access. ` +
      `Files below ${pgliteDir} are now restricted to the service user; restrict the rest with: chmod -R go-rwx ${dataDir}`,
  );
}
