module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'diagram',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
