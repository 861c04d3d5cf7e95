import { sqlMigration } from './sql-migration';

/**
 * An artifact version's analysis as `json`, not `jsonb`: jsonb reorders object keys (shorter keys first), so a
 * synced diagram lost its context file's order, and the drawing showed another three data fields of a node than the
 * first three its author wrote (the editor, from the file, showed those). `json` keeps the text as the server wrote
 * it. Versions stored before keep jsonb's order until their files change (a version is never analysed again);
 * nothing queries inside the column.
 */
export const AnalysisKeyOrder1766000000000 = sqlMigration('AnalysisKeyOrder1766000000000', {
  up: [`ALTER TABLE artifact_versions ALTER COLUMN analysis TYPE json USING analysis::json`],
  down: [`ALTER TABLE artifact_versions ALTER COLUMN analysis TYPE jsonb USING analysis::jsonb`],
});
