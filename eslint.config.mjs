import nx from '@nx/eslint-plugin';

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
          paths: [{ name: '@sc/testing-idp', message: '@sc/testing-idp is test code: import it only from specs and test folders.' }],
          patterns: [{ group: ['@sc/testing-idp/*'], message: '@sc/testing-idp is test code: import it only from specs and test folders.' }],
        },
      ],
    },
  },
];
