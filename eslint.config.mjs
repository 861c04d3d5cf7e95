import angular from '@angular-eslint/eslint-plugin';
import angularTemplate from '@angular-eslint/eslint-plugin-template';
import angularTemplateParser from '@angular-eslint/template-parser';
import nx from '@nx/eslint-plugin';

const TESTING_IDP_MESSAGE = '@sc/testing-idp is test code: import it only from specs and test folders.';
const TESTING_IDP = { path: { name: '@sc/testing-idp', message: TESTING_IDP_MESSAGE }, pattern: { group: ['@sc/testing-idp/*'], message: TESTING_IDP_MESSAGE } };
const DIAGRAM_NODE_MESSAGE = '@sc/diagram/node is Node-only (worker threads, jsdom): the admin imports @sc/diagram.';
const DIAGRAM_NODE = {
  path: { name: '@sc/diagram/node', message: DIAGRAM_NODE_MESSAGE },
  pattern: { group: ['@sc/diagram/node/*', '**/libs/diagram/src/node', '**/libs/diagram/src/node/*', '**/libs/diagram/src/node.ts'], message: DIAGRAM_NODE_MESSAGE },
};
// A module's repositories live at its top or in its store/ folder; its job folders (e.g. artifacts/sync/) reach them
// as ../store/*.repository, which the negation allows. Any other module's, at its top or in a folder of it, is refused.
const OTHER_MODULES_REPOSITORY = {
  group: ['../*/*.repository', '../../*/*.repository', '../*/*/*.repository', '../../*/*/*.repository', '**/modules/*/*.repository', '**/modules/*/*/*.repository', '!../store/*.repository'],
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
    rules: { 'no-restricted-imports': ['error', { paths: [TESTING_IDP.path], patterns: [TESTING_IDP.pattern] }] },
  },
  {
    // The admin runs in the browser: @sc/diagram/node (worker threads, the jsdom Mermaid parser) must never reach
    // its bundle. One Nx project holds both entries, so the module-boundary rule cannot draw this line.
    // ESLint replaces a rule's options per block, so the admin's production files repeat the testing-idp ban.
    files: ['apps/admin/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [DIAGRAM_NODE.path], patterns: [DIAGRAM_NODE.pattern] }] },
  },
  {
    files: ['apps/admin/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [TESTING_IDP.path, DIAGRAM_NODE.path], patterns: [TESTING_IDP.pattern, DIAGRAM_NODE.pattern] }] },
  },
  {
    // The admin's components: the Angular rules, the `sc` selector prefix, OnPush; inline templates are
    // extracted and linted like the .html files below.
    files: ['apps/admin/src/**/*.ts'],
    plugins: { '@angular-eslint': angular },
    processor: angularTemplate.processors['extract-inline-html'],
    rules: {
      ...angular.configs.recommended.rules,
      '@angular-eslint/component-selector': ['error', { type: 'element', prefix: 'sc', style: 'kebab-case' }],
      '@angular-eslint/directive-selector': ['error', { type: 'attribute', prefix: 'sc', style: 'camelCase' }],
      '@angular-eslint/prefer-on-push-component-change-detection': 'error',
      '@angular-eslint/use-lifecycle-interface': 'error',
    },
  },
  {
    // Test hosts in specs drive change detection by hand.
    files: ['apps/admin/src/**/*.spec.ts'],
    rules: { '@angular-eslint/prefer-on-push-component-change-detection': 'off' },
  },
  {
    // The admin's templates: the common checks and the accessibility checks.
    files: ['apps/admin/src/**/*.html'],
    languageOptions: { parser: angularTemplateParser },
    plugins: { '@angular-eslint/template': angularTemplate },
    rules: {
      ...angularTemplate.configs.recommended.rules,
      ...angularTemplate.configs.accessibility.rules,
      '@angular-eslint/template/button-has-type': 'error',
      '@angular-eslint/template/no-duplicate-attributes': 'error',
    },
  },
  {
    // Server modules talk through services (docs/architecture.md): a module's repository is its own. And one
    // unit of work: repositories extend TransactionalRepository and services call UnitOfWork.run, so nothing in
    // a module injects the DataSource or passes an EntityManager (health and metrics read the pool below).
    // ESLint replaces a rule's options per block, so the testing-idp ban is repeated.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.spec.ts', 'apps/server/src/modules/health/health.service.ts', 'apps/server/src/modules/metrics/metrics.service.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [TESTING_IDP.path, ...UNIT_OF_WORK_PATHS], patterns: [TESTING_IDP.pattern, OTHER_MODULES_REPOSITORY] }] },
  },
  {
    files: ['apps/server/src/modules/health/health.service.ts', 'apps/server/src/modules/metrics/metrics.service.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [TESTING_IDP.path], patterns: [TESTING_IDP.pattern, OTHER_MODULES_REPOSITORY] }] },
  },
  {
    files: ['apps/server/src/modules/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_MODULES_REPOSITORY] }] },
  },
];
