// The Jest transform of the Node projects (jest.preset.cjs, apps/admin/jest.e2e.cjs). TypeScript is transpiled by
// swc, file by file (the typecheck target checks types): on a fresh clone ts-jest's TypeScript transpiler cost every
// Jest worker about 11 CPU-seconds for the server's module graph before the first test, swc about a tenth of that.
// The options mirror tsconfig.node.json, which every Node project's spec tsconfig extends: ES2022, CommonJS with
// `import()` kept native (PGlite and oidc-provider are ES modules only), legacy decorators with their design-type
// metadata (Nest's dependency injection, TypeORM, class-validator), and class fields assigned in the constructor
// (useDefineForClassFields false).
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

module.exports = swcTransform;
