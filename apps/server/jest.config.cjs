module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
