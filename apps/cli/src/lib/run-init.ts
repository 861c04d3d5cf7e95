import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { NAME_MAX_LENGTH, SERVICE_CONFIG_FILE_NAME, nameProblem } from '@sc/contracts/core';
import { CONTEXT_SCHEMA_FILE, CONTEXT_SCHEMA_PATH, contextJsonSchema, EXAMPLE_CONTEXT, EXAMPLE_MERMAID } from '@sc/diagram';
import { ExitCode } from './exit-codes';
import { CliError } from './cli-error';
import { runReportingErrors, type CliIo } from './io';
import type { InitJson } from './output-types';

export interface InitOptions {
  dir: string;
  name?: string;
  json: boolean;
  /** Write the complete example repository (every node type of the context file) instead of the starter. */
  example?: boolean;
}

/** A starter file: path relative to the target directory and its content. */
interface StarterFile {
  path: string;
  content: string;
}

/** Directories of the conventional layout that start empty; a `.gitkeep` keeps them in git (diagrams/ gets the starter). */
const EMPTY_LAYOUT_DIRS = ['.service/flows', '.service/schemas', '.service/jobs'];

/** `service-cli init`: writes the starter config and layout, never overwriting anything. Returns the exit code. */
export async function runInit(options: InitOptions, context: { cwd: string; io: CliIo }): Promise<ExitCode> {
  const { io } = context;
  const dir = path.resolve(context.cwd, options.dir);
  return runReportingErrors(io, options.json, async () => {
    const name = options.name ?? defaultServiceName(dir);
    const problem = nameProblem(name);
    if (problem) throw new CliError(ExitCode.Validation, 'invalid_name', `Service name: ${problem} Pass --name.`);
    await fs.mkdir(dir, { recursive: true });

    const created: string[] = [];
    const kept: string[] = [];
    for (const file of options.example ? exampleFiles(name) : starterFiles(name)) {
      const list = (await writeIfAbsent(dir, file)) ? created : kept;
      list.push(file.path);
    }
    if (options.json) {
      const output: InitJson = { ok: true, exitCode: 0, dir, created, kept };
      io.out(JSON.stringify(output, null, 2));
      return ExitCode.Ok;
    }
    for (const file of created) io.out(`created  ${file}`);
    for (const file of kept) io.out(`kept     ${file} (already exists, not overwritten)`);
    if (options.example) io.out('\nEvery field of the context file: docs/context-reference.md of the service repository.');
    io.out(
      created.includes(SERVICE_CONFIG_FILE_NAME)
        ? `\nEdit ${SERVICE_CONFIG_FILE_NAME}, then preview with: service-cli sync --dry-run`
        : `\n${SERVICE_CONFIG_FILE_NAME} already existed and was kept; preview it with: service-cli sync --dry-run`,
    );
    return ExitCode.Ok;
  });
}

/** Creates the file only when nothing (not even a dangling symlink) is at its path; `wx` makes that atomic. */
async function writeIfAbsent(dir: string, file: StarterFile): Promise<boolean> {
  const target = path.join(dir, ...file.path.split('/'));
  await fs.mkdir(path.dirname(target), { recursive: true });
  try {
    await fs.writeFile(target, file.content, { flag: 'wx' });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw new CliError(ExitCode.Configuration, 'init_write_failed', `Cannot write ${file.path}: ${code ?? (error as Error).message}.`);
  }
}

/** The directory name made into a valid service name (`My Service` → `my-service`). */
export function defaultServiceName(dir: string): string {
  const slug = path
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, NAME_MAX_LENGTH);
  return slug || 'my-service';
}

/**
 * The context files' JSON Schema beside them, which their `"$schema"` names (a relative path, so editors complete and
 * check offline). The server serves the same schema at /schemas/context.v1.json.
 */
const CONTEXT_SCHEMA: StarterFile = {
  path: `.service/diagrams/${CONTEXT_SCHEMA_FILE}`,
  content: `${JSON.stringify({ $comment: `Written by service-cli init; the service serves the current one at {SERVICE_PUBLIC_URL}${CONTEXT_SCHEMA_PATH}.`, ...contextJsonSchema() }, null, 2)}\n`,
};

function starterFiles(name: string): StarterFile[] {
  return [
    { path: SERVICE_CONFIG_FILE_NAME, content: starterConfig(name) },
    ...EMPTY_LAYOUT_DIRS.map((dir) => ({ path: `${dir}/.gitkeep`, content: '' })),
    { path: '.service/diagrams/topology.mmd', content: STARTER_TOPOLOGY },
    { path: '.service/diagrams/topology.context.json', content: STARTER_CONTEXT },
    CONTEXT_SCHEMA,
    { path: '.service/service-summary.md', content: `# ${name}\n\nWhat this service does, who calls it and what it depends on.\n` },
  ];
}

/**
 * `init --example`: a complete repository whose topology uses every node type of the context file (the example of
 * docs/context-reference.md), with the database its `dbConfig` nodes name, so `sync --dry-run` passes as written.
 */
function exampleFiles(name: string): StarterFile[] {
  const config = `# .service.yaml — the complete example of service-cli init --example (docs/context-reference.md explains every field).
# Preview without sending:  service-cli sync --dry-run
version: 1
service:
  name: ${name}
  description: Example service using every node type of the context file
architectureDiagrams:
  - name: topology
    path: .service/diagrams/topology.mmd
    contextPath: .service/diagrams/topology.context.json
databases:
  - name: ledger        # the dbConfig.databaseName of the ledger and entries nodes
    engine: postgres
    schemaPath: .service/schemas/ledger.sql
summaryPath: .service/service-summary.md
`;
  return [
    { path: SERVICE_CONFIG_FILE_NAME, content: config },
    { path: '.service/diagrams/topology.mmd', content: EXAMPLE_MERMAID },
    { path: '.service/diagrams/topology.context.json', content: `${JSON.stringify(EXAMPLE_CONTEXT, null, 2)}\n` },
    CONTEXT_SCHEMA,
    { path: '.service/schemas/ledger.sql', content: EXAMPLE_LEDGER_SQL },
    { path: '.service/service-summary.md', content: `# ${name}\n\nTakes payments and books them in the ledger.\n` },
  ];
}

const EXAMPLE_LEDGER_SQL = `CREATE TABLE entries (
  id BIGINT PRIMARY KEY,
  account TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  booked_at TIMESTAMP NOT NULL
);
`;

function starterConfig(name: string): string {
  return `# .service.yaml — what \`service-cli sync\` sends to the system-context service.
# Paths are relative to this file's directory and must stay inside it (no "..", no absolute paths,
# no symlinks leading out). Editor completion: docs/schema/service.schema.json of the service repository
# (e.g. "# yaml-language-server: $schema=<url of service.schema.json>" as the first line).
# Preview without sending:  service-cli sync --dry-run
version: 1

service:
  name: ${name}               # unique in your organization; letters, digits, ".", "_", "-"
  description: ""              # one line shown in the dashboard
  # repositoryUrl: https://github.com/acme/${name}   # default: the git origin remote; credentials are stripped

# Mermaid topology diagrams (flowchart, stateDiagram-v2, sequenceDiagram or C4*), each with an optional
# context JSON overlay (node types, styles, data fields). A contextPath must exist.
architectureDiagrams:
  - name: topology
    path: .service/diagrams/topology.mmd
    contextPath: .service/diagrams/topology.context.json

# One .mmd per endpoint group or async process, with optional notes.
# flows:
#   - name: checkout
#     path: .service/flows/checkout.mmd
#     notesPath: .service/flows/checkout.md

# engine: postgres | mysql | sqlite (schema .sql) or dynamodb | mongodb (schema .json)
# databases:
#   - name: main
#     engine: postgres
#     schemaPath: .service/schemas/main.sql
#     notesPath: .service/schemas/main.md

# jobs:
#   notesPath: .service/jobs/jobs.md
#   dependenciesPath: .service/jobs/job-dependencies.mmd

summaryPath: .service/service-summary.md

# docs:
#   - name: runbook
#     path: docs/runbook.md

# format: openapi | asyncapi | graphql | protobuf
# apiSpecs:
#   - name: public-api
#     path: openapi.yaml
#     format: openapi
`;
}

const STARTER_TOPOLOGY = `flowchart LR
  client([Client]) --> api[API]
  api --> db[(Database)]
`;

const STARTER_CONTEXT = `${JSON.stringify(
  {
    $schema: `./${CONTEXT_SCHEMA_FILE}`,
    name: 'Topology',
    nodes: {
      api: { type: 'shape', shape: 'rounded-rect', name: 'API' },
      db: { type: 'shape', shape: 'cylinder', name: 'Database' },
    },
    edges: { 'api-db': { label: 'reads and writes' } },
  },
  null,
  2,
)}\n`;
