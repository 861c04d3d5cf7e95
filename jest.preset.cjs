// Shared by the Node projects. TypeScript is transpiled by swc, file by file (the typecheck target checks types): on a
// fresh clone ts-jest's TypeScript transpiler cost every Jest worker about 11 CPU-seconds for the server's module graph
// before the first test, swc about a tenth of that. The options mirror tsconfig.node.json, which every Node project's
// spec tsconfig extends: ES2022, CommonJS with `import()` kept native (PGlite and oidc-provider are ES modules only),
// legacy decorators with their design-type metadata (Nest's dependency injection, TypeORM, class-validator), and
// class fields assigned in the constructor (useDefineForClassFields false).
const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'commonjs', ignoreDynamic: true },
    sourceMaps: 'inline',
  },
];

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

module.exports.swcTransform = swcTransform;
