module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'diagram',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Two workers even on a 2-core machine (Jest's default there is one): `npm test` runs two projects at a time, and
  // this one, among the longest, would otherwise finish alone on one core while the other stays idle.
  maxWorkers: 2,
  // Mermaid needs a jsdom window on globalThis; Jest's between-file global cleanup walks that
  // cyclic object graph and overflows the stack, so it is turned off for this project.
  testEnvironmentOptions: { globalsCleanup: 'off' },
};
