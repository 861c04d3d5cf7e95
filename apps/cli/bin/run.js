#!/usr/bin/env node
// Runs the compiled CLI (apps/cli/dist); build it first with `npx nx build cli`.
require('@oclif/core')
  .execute({ dir: __dirname })
  .catch(require('@oclif/core/handle'));
