import nx from '@nx/eslint-plugin';

const TESTING_IDP_MESSAGE = '@sc/testing-idp is test code: import it only from specs and test folders.';
const TESTING_IDP_PATHS = [{ name: '@sc/testing-idp', message: TESTING_IDP_MESSAGE }];
const TESTING_IDP_PATTERNS = [{ group: ['@sc/testing-idp/*'], message: TESTING_IDP_MESSAGE }];
const OTHER_MODULES_REPOSITORY = {
  group: ['../*/*.repository', '../../*/*.repository', '**/modules/*/*.repository'],
  message: "A module's repository is its own: call the other module's exported service instead (docs/architecture.md, module map).",
};
const UNIT_OF_WORK_PATHS = [
  { name: 'typeorm', importNames: ['DataSource', 'EntityManager'], message: 'Repositories extend TransactionalRepository (this.manager joins the current unit of work); services call UnitOfWork.run.' },
  { name: '@nestjs/typeorm', importNames: ['InjectDataSource', 'InjectEntityManager'], message: 'Repositories extend TransactionalRepository; services call UnitOfWork.run.' },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.angular', 'tmp', 'data', '**/*.cjs', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:admin', onlyDependOnLibsWithTags: ['scope:admin', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:cli', 'scope:shared'] },
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:testing', 'scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The shared libraries run in the browser, the server and the CLI alike.
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'typeorm', 'typeorm-*', '@angular/*', 'express', 'pg'], message: 'libs/* are framework-free: no Nest, TypeORM, Angular or Express imports.' },
          ],
        },
      ],
    },
  },
  {
    // Test libraries (scope:testing) start identity providers and fake browsers: tests may use them,
    // production code never. The Nx tags allow server/admin to depend on them, so this rule draws the line.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: TESTING_IDP_PATHS,
          patterns: TESTING_IDP_PATTERNS,
        },
      ],
    },
  },
  {
    // Server modules talk through services (docs/architecture.md): a module's repository is its own. And one
    // unit of work: repositories extend TransactionalRepository and services call UnitOfWork.run, so nothing in
    // a module injects the DataSource or passes an EntityManager (health and metrics read the pool below).
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.spec.ts', 'apps/server/src/modules/health/health.service.ts', 'apps/server/src/modules/metrics/metrics.service.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...TESTING_IDP_PATHS, ...UNIT_OF_WORK_PATHS], patterns: [...TESTING_IDP_PATTERNS, OTHER_MODULES_REPOSITORY] }],
    },
  },
  {
    files: ['apps/server/src/modules/health/health.service.ts', 'apps/server/src/modules/metrics/metrics.service.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: TESTING_IDP_PATHS, patterns: [...TESTING_IDP_PATTERNS, OTHER_MODULES_REPOSITORY] }],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [OTHER_MODULES_REPOSITORY] }],
    },
  },
];
