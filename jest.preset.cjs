// Shared by the Node projects; TypeScript through swc (jest.swc.cjs says why and how).
const swcTransform = require('./jest.swc.cjs');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': swcTransform,
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // Two workers even on a 2-core machine (Jest's default there is one): `npm test` runs two projects at a time, and
  // the longest ones (server, diagram, cli) would otherwise each finish alone on one core while the other stays idle.
  maxWorkers: 2,
  moduleNameMapper: {
    '^@sc/contracts$': '<rootDir>/../../libs/contracts/src/index.ts',
    '^@sc/contracts/core$': '<rootDir>/../../libs/contracts/src/core.ts',
    '^@sc/diagram$': '<rootDir>/../../libs/diagram/src/index.ts',
    '^@sc/diagram/node$': '<rootDir>/../../libs/diagram/src/node.ts',
    '^@sc/diagram/testing$': '<rootDir>/../../libs/diagram/src/testing/diagram-fixture.ts',
    '^@sc/testing-idp$': '<rootDir>/../../libs/testing-idp/src/index.ts',
  },
};
