// The integration project's global setup. Before the test workers start, in parallel:
// - builds service-cli once: specs run the built binary (test/artifacts/cli-process.ts). Each spec building it itself
//   made two workers start `nx run cli:build` at the same time, and Nx refused one of them as a recursive invocation
//   (diagram-image.spec failed beside cli-sync.spec in CI).
// - migrates the run's template database (template-database.cjs; PostgreSQL too with TEST_DATABASE_URL): every test
//   app starts from a copy. global-teardown.cjs removes it.
const { run, migrateTemplateDatabase } = require('./template-database.cjs');
const { useMemoryTmpdir } = require('../../../scripts/test-tmpdir.cjs');

module.exports = async () => {
  useMemoryTmpdir();
  await Promise.all([
    run('npx', ['nx', 'run', 'cli:build', '--output-style=static'], { NX_DAEMON: 'false' }, 'cli:build'),
    migrateTemplateDatabase(process.env['TEST_DATABASE_URL']),
  ]);
};
