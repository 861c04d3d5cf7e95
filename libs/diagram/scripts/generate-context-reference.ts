/**
 * Writes docs/context-reference.md from libs/diagram/src/lib/context/context-reference.ts (the same lists the
 * validator checks against). context-reference.spec.ts fails until it is run after a change there:
 *   npx ts-node -T -P libs/diagram/tsconfig.spec.json libs/diagram/scripts/generate-context-reference.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextReferenceMarkdown } from '../src/lib/context/context-reference';

const target = join(__dirname, '../../../docs/context-reference.md');
writeFileSync(target, contextReferenceMarkdown());
process.stdout.write(`wrote ${target}\n`);
