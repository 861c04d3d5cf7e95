import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { load } from 'js-yaml';
import { API_SPEC_FORMATS, DATABASE_ENGINES, validateServiceConfig } from '@sc/contracts';

const SCHEMA_PATH = path.join(__dirname, '../../../docs/schema/service.schema.json');
const FIXTURE = path.join(__dirname, 'fixtures/sample-repo/.service.yaml');

const validateWithSchema = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);

function validatorErrors(value: unknown): string[] {
  return validateServiceConfig(value, { file: 'sample' })
    .problems.filter((problem) => problem.severity === 'error')
    .map((problem) => problem.code);
}

const base = { version: 1, service: { name: 'payments' } };

/** Invalid samples: both the JSON Schema and the validator must refuse each one. */
const INVALID: Array<[string, unknown]> = [
  ['missing version', { service: { name: 'payments' } }],
  ['version 2', { ...base, version: 2 }],
  ['missing service', { version: 1 }],
  ['missing service name', { version: 1, service: { description: 'x' } }],
  ['invalid service name', { version: 1, service: { name: 'has space' } }],
  ['name too long', { version: 1, service: { name: 'a'.repeat(101) } }],
  ['description too long', { version: 1, service: { name: 'payments', description: 'a'.repeat(2001) } }],
  ['repository URL too long', { version: 1, service: { name: 'payments', repositoryUrl: `https://git.example/${'a'.repeat(2048)}` } }],
  ['diagram without path', { ...base, architectureDiagrams: [{ name: 'a' }] }],
  ['absolute path', { ...base, architectureDiagrams: [{ name: 'a', path: '/etc/passwd' }] }],
  ['windows absolute path', { ...base, docs: [{ name: 'a', path: 'C:/x.md' }] }],
  ['leading .. escape', { ...base, flows: [{ name: 'a', path: '../x.mmd' }] }],
  ['backslash path', { ...base, summaryPath: 'a\\b.md' }],
  ['empty path', { ...base, summaryPath: '' }],
  ['unknown engine', { ...base, databases: [{ name: 'd', engine: 'oracle', schemaPath: 'd.sql' }] }],
  ['sql engine with json schema', { ...base, databases: [{ name: 'd', engine: 'postgres', schemaPath: 'd.json' }] }],
  ['json engine with sql schema', { ...base, databases: [{ name: 'd', engine: 'mongodb', schemaPath: 'd.sql' }] }],
  ['unknown api format', { ...base, apiSpecs: [{ name: 'a', path: 'a.yaml', format: 'swagger' }] }],
  ['list that is not a list', { ...base, docs: { name: 'a' } }],
  ['strict that is not a boolean', { ...base, strict: 'yes' }],
  ['path that is not a string', { ...base, docs: [{ name: 'a', path: 42 }] }],
  ['jobs not a mapping', { ...base, jobs: ['a'] }],
];

describe('docs/schema/service.schema.json', () => {
  it('accepts the payments fixture, as the validator does', () => {
    const fixture = load(readFileSync(FIXTURE, 'utf8'));
    expect(validateWithSchema(fixture)).toBe(true);
    expect(validatorErrors(fixture)).toEqual([]);
  });

  it.each(INVALID)('refuses %s, as the validator does', (_label, sample) => {
    expect(validateWithSchema(sample)).toBe(false);
    expect(validatorErrors(sample).length).toBeGreaterThan(0);
  });

  it('flags unknown keys (editors) where the validator only warns', () => {
    const sample = { ...base, colour: 'blue' };
    expect(validateWithSchema(sample)).toBe(false);
    const problems = validateServiceConfig(sample, { file: 'sample' }).problems;
    expect(problems.filter((problem) => problem.code === 'unknown_key').map((problem) => problem.severity)).toEqual(['warning']);
  });

  it('lists exactly the enums the contracts define', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as {
      properties: { databases: { items: { properties: { engine: { enum: string[] } } } }; apiSpecs: { items: { properties: { format: { enum: string[] } } } } };
    };
    expect(schema.properties.databases.items.properties.engine.enum).toEqual([...DATABASE_ENGINES]);
    expect(schema.properties.apiSpecs.items.properties.format.enum).toEqual([...API_SPEC_FORMATS]);
  });
});
