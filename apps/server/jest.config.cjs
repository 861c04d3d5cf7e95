module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'server',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Two workers even on a 2-core machine (Jest's default there is one): `npm test` runs two projects at a time, and
  // this one, among the longest, would otherwise finish alone on one core while the other stays idle.
  maxWorkers: 2,
};
