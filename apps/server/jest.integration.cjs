// HTTP-level tests through the real Nest stack on a real database (PGlite, or TEST_DATABASE_URL).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server-integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
