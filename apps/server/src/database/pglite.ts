import { mkdirSync } from 'node:fs';
import { lockDataDir } from './data-dir-lock';

/**
 * Opens embedded PostgreSQL. PGlite is ESM-only, so it is loaded with a native dynamic import (kept as
 * `import()` by the node16 module setting); `dataDir: null` keeps the database in memory (tests).
 * A directory is locked against a second server; call `release` after closing the database.
 */
export async function openPglite(dataDir: string | null) {
  const { PGlite: PGliteClass, types } = await import('@electric-sql/pglite');
  let release: () => void = () => undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = lockDataDir(dataDir);
  }
  // PGlite sends JS booleans as 't'/'f' text; TypeORM's postgres driver expects TRUE/FALSE.
  const serializeBoolean = (value: unknown) => (value === true || value === 'true' ? 'TRUE' : value === false || value === 'false' ? 'FALSE' : String(value));
  try {
    const db = await PGliteClass.create(dataDir ?? 'memory://', { serializers: { [types.BOOL]: serializeBoolean } });
    return { db, release };
  } catch (error) {
    release();
    throw error;
  }
}
