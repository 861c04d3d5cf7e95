// The unit project's global setup (apps/server/jest.config.cjs): the run's PGlite template database
// (template-database.cjs), which each service spec file copies (src/testing/service-test-module.ts). The service
// specs run on PGlite only, so no PostgreSQL template is made even with TEST_DATABASE_URL. global-teardown.cjs
// removes it.
const { migrateTemplateDatabase } = require('./template-database.cjs');
const { useMemoryTmpdir } = require('../../../scripts/test-tmpdir.cjs');

module.exports = () => {
  useMemoryTmpdir();
  return migrateTemplateDatabase(undefined);
};
