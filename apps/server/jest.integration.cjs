// HTTP-level tests through the real Nest stack on a real database (PGlite, or TEST_DATABASE_URL).
// Some specs need what only PostgreSQL has: test/multi-instance/ runs two server processes on one database (PGlite is
// one process per data directory) and *.postgres.spec.ts hold a transaction open on a second connection (PGlite has
// one) or dump a database with pg_dump. They are registered only with TEST_DATABASE_URL (.ci/run's second integration step sets it), so no test is
// ever skipped; the run says so on its first line instead.
const withPostgres = Boolean(process.env['TEST_DATABASE_URL']);
const POSTGRES_ONLY = ['<rootDir>/test/multi-instance/', '\\.postgres\\.spec\\.ts$'];
if (!withPostgres) {
  process.stderr.write('server-integration: test/multi-instance and *.postgres.spec.ts NOT RUN — they need PostgreSQL: set TEST_DATABASE_URL (CI runs them in its PostgreSQL step).\n');
}

module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server-integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(withPostgres ? [] : POSTGRES_ONLY)],
  // An upper bound, never a wait: a file's app start (every migration on PGlite) took over 60 s in a beforeAll with
  // two CI runs and two CPU hogs on the 2-core machine.
  testTimeout: 120000,
  // service-cli built once for the specs that run it, and one migrated template database every test app copies
  // (test/global-setup.cjs, removed again by test/global-teardown.cjs).
  globalSetup: '<rootDir>/test/global-setup.cjs',
  globalTeardown: '<rootDir>/test/global-teardown.cjs',
  maxWorkers: 2,
};
