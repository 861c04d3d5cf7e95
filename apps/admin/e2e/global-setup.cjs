// Migrates one embedded database for the run with the built server's own migrations (dist/, which `nx run admin:e2e`
// builds first): startServer (support/server.ts) copies it into each server's fresh data directory, so a spec's server
// opens a migrated database instead of creating one (PGlite's initdb in WebAssembly) and running every migration, which
// cost seconds per spec on the 2-core CI machine. The server still starts exactly as `npm start` does; it finds
// nothing pending. global-teardown.cjs removes the template.
const { existsSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const { useMemoryTmpdir } = require('../../../scripts/test-tmpdir.cjs');

const DATA_SOURCE = resolve(__dirname, '../../../dist/apps/server/apps/server/src/database/data-source-options.js');

module.exports = async () => {
  useMemoryTmpdir();
  // Without a build the specs fail with the message of startServer; the template needs the build too.
  if (!existsSync(DATA_SOURCE)) return;
  const templateRoot = mkdtempSync(join(tmpdir(), 'sc-admin-e2e-template-'));
  const pgliteDir = join(templateRoot, 'pglite');
  const { buildDataSourceOptions, openDataSource } = require(DATA_SOURCE);
  // TypeORM's silent logger: the server's query logger would print every statement.
  const dataSource = await openDataSource({ ...(await buildDataSourceOptions({ kind: 'pglite', dataDir: pgliteDir })), logger: undefined, logging: false });
  try {
    // As in the server tests' template (apps/server/test/support/database-template.ts): PGlite zeroes all of
    // PostgreSQL's shared memory at every start, most of its start with the default 128MB; production keeps the default.
    await dataSource.query("ALTER SYSTEM SET shared_buffers = '16MB'");
  } finally {
    await dataSource.destroy();
  }
  process.env['SC_E2E_PGLITE_TEMPLATE'] = pgliteDir;
  globalThis.__scE2eTemplateRoot = templateRoot;
};
