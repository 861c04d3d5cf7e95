module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'diagram',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Mermaid needs a jsdom window on globalThis; Jest's between-file global cleanup walks that
  // cyclic object graph and overflows the stack, so it is turned off for this project.
  testEnvironmentOptions: { globalsCleanup: 'off' },
};
