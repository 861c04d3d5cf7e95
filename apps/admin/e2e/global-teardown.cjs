// Removes the run's template database (global-setup.cjs).
const { rmSync } = require('node:fs');

module.exports = async () => {
  if (globalThis.__scE2eTemplateRoot) rmSync(globalThis.__scE2eTemplateRoot, { recursive: true, force: true });
};
