module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'testing-idp',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
