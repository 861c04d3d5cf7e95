// The run's template database, shared by the global setups of the integration project (global-setup.cjs) and the
// unit project (unit-global-setup.cjs): one migrated database (support/database-template.ts) that every test app or
// service spec copies instead of creating and migrating its own. The workers find it through the environment
// variables set here (they are started after the global setup); global-teardown.cjs removes it.
const { execFile } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const WORKSPACE = resolve(__dirname, '../../..');

/** Runs `command` in the workspace; answers its output, or fails with it saying what failed. */
function run(command, args, env, what) {
  return new Promise((done, fail) => {
    execFile(command, args, { cwd: WORKSPACE, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${what} failed before the tests:\n${stdout}\n${stderr}`));
      else done(stdout);
    });
  });
}

/**
 * Migrates the PGlite template (and, with `adminUrl`, a PostgreSQL template database on that server) and names them
 * in SC_TEST_PGLITE_TEMPLATE / SC_TEST_POSTGRES_TEMPLATE. The migrations run in a child process, outside Jest, so
 * they load as in the server.
 */
async function migrateTemplateDatabase(adminUrl) {
  const templateRoot = mkdtempSync(join(tmpdir(), 'sc-test-template-'));
  const pgliteTemplate = join(templateRoot, 'pglite');
  // Read by global-teardown.cjs (globals of the global setup reach the teardown, not the tests); set before the
  // migration so a failed one is removed too.
  globalThis.__scTestTemplate = { templateRoot, postgres: null, adminUrl };
  const output = await run(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'apps/server/test/support/database-template.ts', pgliteTemplate, ...(adminUrl ? [adminUrl] : [])],
    { TS_NODE_PROJECT: 'apps/server/tsconfig.spec.json', NODE_OPTIONS: '' },
    'Migrating the template database',
  );
  const { postgres } = JSON.parse(output.trim().split('\n').pop());
  process.env['SC_TEST_PGLITE_TEMPLATE'] = pgliteTemplate;
  if (postgres) process.env['SC_TEST_POSTGRES_TEMPLATE'] = postgres;
  globalThis.__scTestTemplate.postgres = postgres;
}

module.exports = { run, migrateTemplateDatabase };
