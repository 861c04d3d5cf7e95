// Removes the run's template database (template-database.cjs), for the integration and the unit project.
const { rmSync } = require('node:fs');
const { Client } = require('pg');

module.exports = async () => {
  const template = globalThis.__scTestTemplate;
  if (!template) return;
  rmSync(template.templateRoot, { recursive: true, force: true });
  if (template.postgres && template.adminUrl) {
    const client = new Client({ connectionString: template.adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${template.postgres} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
};
