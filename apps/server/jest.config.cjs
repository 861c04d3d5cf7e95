module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // One migrated PGlite template database per run, copied by each service spec file (src/testing/service-test-module.ts)
  // instead of creating a database and migrating it per file; removed again by the shared teardown.
  globalSetup: '<rootDir>/test/unit-global-setup.cjs',
  globalTeardown: '<rootDir>/test/global-teardown.cjs',
};
