module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'cli',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testTimeout: 60000,
  // @sc/contracts exports class-validator/class-transformer DTOs whose decorators need the Reflect polyfill
  // at import time (the CLI entry, src/commands.ts, imports it the same way).
  setupFiles: ['reflect-metadata'],
  // Mermaid (through @sc/diagram/node) puts a jsdom window on globalThis; Jest's between-file global cleanup
  // walks that cyclic graph and overflows the stack.
  testEnvironmentOptions: { globalsCleanup: 'off' },
};
