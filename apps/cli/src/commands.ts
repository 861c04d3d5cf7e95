import DiffCommand from './commands/diff';
import HelpCommand from './commands/help';
import InitCommand from './commands/init';
import InspectCommand from './commands/inspect';
import McpCommand from './commands/mcp';
import RenderCommand from './commands/render';
import SyncCommand from './commands/sync';

/** oclif's explicit command strategy (apps/cli/package.json → oclif.commands) loads this map. */
export const COMMANDS = {
  diff: DiffCommand,
  help: HelpCommand,
  init: InitCommand,
  inspect: InspectCommand,
  mcp: McpCommand,
  render: RenderCommand,
  sync: SyncCommand,
};
