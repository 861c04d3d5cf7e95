// HTTP-level tests through the real Nest stack on a real database (PGlite, or TEST_DATABASE_URL).
// test/multi-instance/ runs two server processes on one database: PGlite is one process per data directory, so
// those specs are registered only with TEST_DATABASE_URL (PostgreSQL; .ci/run's second integration step sets it).
const withPostgres = Boolean(process.env['TEST_DATABASE_URL']);
if (!withPostgres) {
  process.stderr.write('server-integration: test/multi-instance NOT RUN — it needs PostgreSQL: set TEST_DATABASE_URL (CI runs it in its PostgreSQL step).\n');
}

module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server-integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(withPostgres ? [] : ['<rootDir>/test/multi-instance/'])],
  testTimeout: 60000,
  maxWorkers: 2,
};
