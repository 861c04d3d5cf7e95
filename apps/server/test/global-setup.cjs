// Before the test workers start, in parallel:
// - builds service-cli once: specs run the built binary (test/artifacts/cli-process.ts). Each spec building it itself
//   made two workers start `nx run cli:build` at the same time, and Nx refused one of them as a recursive invocation
//   (diagram-image.spec failed beside cli-sync.spec in CI).
// - migrates one template database for the run (test/support/database-template.ts): every test app starts from a copy
//   instead of creating and migrating its own. The workers find it through the environment variables set here
//   (they are started after this setup); global-teardown.cjs removes it.
const { execFile } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const WORKSPACE = resolve(__dirname, '../../..');

function run(command, args, env, what) {
  return new Promise((done, fail) => {
    execFile(command, args, { cwd: WORKSPACE, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${what} failed before the integration tests:\n${stdout}\n${stderr}`));
      else done(stdout);
    });
  });
}

module.exports = async () => {
  const templateRoot = mkdtempSync(join(tmpdir(), 'sc-test-template-'));
  const pgliteTemplate = join(templateRoot, 'pglite');
  const adminUrl = process.env['TEST_DATABASE_URL'];
  const [, templateOutput] = await Promise.all([
    run('npx', ['nx', 'run', 'cli:build', '--output-style=static'], { NX_DAEMON: 'false' }, 'cli:build'),
    run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'apps/server/test/support/database-template.ts', pgliteTemplate, ...(adminUrl ? [adminUrl] : [])],
      { TS_NODE_PROJECT: 'apps/server/tsconfig.spec.json', NODE_OPTIONS: '' },
      'Migrating the template database',
    ),
  ]);
  const { postgres } = JSON.parse(templateOutput.trim().split('\n').pop());
  process.env['SC_TEST_PGLITE_TEMPLATE'] = pgliteTemplate;
  if (postgres) process.env['SC_TEST_POSTGRES_TEMPLATE'] = postgres;
  // Read by global-teardown.cjs (globals of the global setup reach the teardown, not the tests).
  globalThis.__scTestTemplate = { templateRoot, postgres, adminUrl };
};
