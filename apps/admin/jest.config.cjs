// Angular unit tests: jest-preset-angular in zoneless mode (Angular 21 default). No --experimental-vm-modules here:
// it switches Jest to its ESM loader, which jest-preset-angular's CommonJS transform does not support.
module.exports = {
  displayName: 'admin',
  rootDir: __dirname,
  preset: 'jest-preset-angular',
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/src/test-setup.ts'],
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Several specs lay out with the real ELK in-thread and render the canvas in jsdom: seconds of CPU on a loaded
  // 2-core machine (CI shares it). Jest's 5 s default failed them there, and a timed-out test kept running into the
  // next one's mocks. Nothing here measures speed (benchmarks do).
  testTimeout: 30000,
  // Two workers, as jest.preset.cjs says for the Node projects: the longest project must not finish alone on one core.
  maxWorkers: 2,
  transform: {
    '^.+\\.(ts|js|mjs|html|svg)$': ['jest-preset-angular', { tsconfig: '<rootDir>/tsconfig.spec.json', stringifyContentPathRegex: '\\.(html|svg)$' }],
  },
  // marked ships only an ES module build; jest-preset-angular turns it into CommonJS like the .mjs files.
  transformIgnorePatterns: ['node_modules/(?!(.*\\.mjs$|marked/))'],
  moduleNameMapper: {
    '^@sc/contracts$': '<rootDir>/../../libs/contracts/src/index.ts',
    '^@sc/contracts/core$': '<rootDir>/../../libs/contracts/src/core.ts',
    '^@sc/diagram$': '<rootDir>/../../libs/diagram/src/index.ts',
    // Specs only: the fixture topology shared with libs/diagram's renderer spec.
    '^@sc/diagram/testing$': '<rootDir>/../../libs/diagram/src/testing/diagram-fixture.ts',
    // `new Worker(new URL(…, import.meta.url))` cannot run under Jest: the canvas specs lay out with ELK in-thread.
    '^\\./layout-worker$': '<rootDir>/src/testing/layout-worker.ts',
  },
};
