import { mkdirSync } from 'node:fs';

/**
 * Opens embedded PostgreSQL. PGlite is ESM-only, so it is loaded with a native dynamic import (kept as
 * `import()` by the node16 module setting); `dataDir: null` keeps the database in memory (tests).
 */
export async function openPglite(dataDir: string | null) {
  const { PGlite: PGliteClass, types } = await import('@electric-sql/pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // PGlite sends JS booleans as 't'/'f' text; TypeORM's postgres driver expects TRUE/FALSE.
  const serializeBoolean = (value: unknown) => (value === true || value === 'true' ? 'TRUE' : value === false || value === 'false' ? 'FALSE' : String(value));
  return PGliteClass.create(dataDir ?? 'memory://', { serializers: { [types.BOOL]: serializeBoolean } });
}
