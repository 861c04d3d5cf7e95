// Browser end-to-end tests: the built server (serving the built admin app) driven through Debian Chromium.
// `nx run admin:e2e` builds both first; running this config alone expects dist/ to be current.
// Unlike the Angular unit tests these run in Node, so --experimental-vm-modules is fine here (and needed by specs
// that start ESM-only test servers such as oidc-provider).
module.exports = {
  displayName: 'admin-e2e',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/e2e/**/*.spec.ts'],
  // swc, as for the other Node projects (jest.swc.cjs; tsconfig.e2e.json extends tsconfig.node.json too).
  transform: {
    '^.+\\.ts$': require('../../jest.swc.cjs'),
  },
  testTimeout: 180000,
  // One migrated embedded database per run, copied into each spec's server data directory (e2e/global-setup.cjs).
  globalSetup: '<rootDir>/e2e/global-setup.cjs',
  globalTeardown: '<rootDir>/e2e/global-teardown.cjs',
  // The shared IdP harness (oidc-provider on loopback) and the pure libraries (the drawing's geometry checks run
  // libs/diagram's layout and routeCrossings in Node).
  moduleNameMapper: {
    '^@sc/testing-idp$': '<rootDir>/../../libs/testing-idp/src/index.ts',
    '^@sc/contracts$': '<rootDir>/../../libs/contracts/src/index.ts',
    '^@sc/contracts/core$': '<rootDir>/../../libs/contracts/src/core.ts',
    '^@sc/diagram$': '<rootDir>/../../libs/diagram/src/index.ts',
    '^@sc/diagram/testing$': '<rootDir>/../../libs/diagram/src/testing/diagram-fixture.ts',
  },
};
