import { Args, Command, Flags } from '@oclif/core';
import { processIo } from '../lib/io';
import { runInspect } from '../lib/run-inspect';

export default class InspectCommand extends Command {
  static override summary = 'Show the graph the service would store for one Mermaid file.';

  static override description = `Parses a Mermaid file (flowchart/graph, stateDiagram-v2, sequenceDiagram or C4*) with Mermaid's own parser and prints its kind, nodes, edges and groups. With --context it also validates and applies a context JSON overlay and prints the report (applied, unmatched keys with hints, errors, warnings).

Exit codes: 0 valid, 1 errors (printed with file, line and JSON path), 2 a file cannot be read.`;

  static override examples = [
    { description: 'Nodes, edges and groups of a diagram', command: '<%= config.bin %> <%= command.id %> .service/diagrams/topology.mmd' },
    { description: 'Check a context overlay against the diagram', command: '<%= config.bin %> <%= command.id %> .service/diagrams/topology.mmd --context .service/diagrams/topology.context.json' },
    { description: 'Allow dbConfig.databaseName values, print the graph model as JSON', command: '<%= config.bin %> <%= command.id %> topology.mmd --context topology.context.json --database ledger --database events --json' },
  ];

  static override args = {
    file: Args.string({ description: 'The Mermaid file (.mmd).', required: true }),
  };

  static override flags = {
    context: Flags.string({ summary: 'Context JSON overlay to validate and apply.', helpValue: '<file.json>' }),
    // Non-greedy: `--database a file.mmd` must not swallow the file argument.
    database: Flags.string({ summary: 'A database name dbConfig.databaseName may use (repeat the flag for several).', multiple: true, multipleNonGreedy: true, helpValue: '<name>' }),
    json: Flags.boolean({ summary: 'Print the graph model (and report) as JSON.', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(InspectCommand);
    process.exitCode = await runInspect(
      { file: args.file, context: flags.context, databases: flags.database ?? [], json: flags.json },
      { cwd: process.cwd(), io: processIo },
    );
  }
}
