// Shared by the Node projects: ts-jest in transpile-only mode (the typecheck target checks types).
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper: {
    '^@sc/contracts$': '<rootDir>/../../libs/contracts/src/index.ts',
    '^@sc/contracts/core$': '<rootDir>/../../libs/contracts/src/core.ts',
    '^@sc/diagram$': '<rootDir>/../../libs/diagram/src/index.ts',
    '^@sc/diagram/node$': '<rootDir>/../../libs/diagram/src/node.ts',
    '^@sc/diagram/testing$': '<rootDir>/../../libs/diagram/src/testing/diagram-fixture.ts',
    '^@sc/testing-idp$': '<rootDir>/../../libs/testing-idp/src/index.ts',
  },
};
