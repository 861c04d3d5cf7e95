import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format } from 'node:util';

/** One example of a command's help: what it does, and the command line (oclif's `<%= … %>` templates allowed). */
export interface HelpExample {
  description: string;
  command: string;
}

/**
 * A command's help text, read from `messages/<name>.md` (the layout of Salesforce's oclif plugins): each `# key`
 * heading starts a message, e.g. `# summary`, `# description`, `# examples`, `# flags.config.summary`. Long text
 * stays readable and reviewable as markdown instead of template literals in the command classes.
 *
 * The files sit in apps/cli/messages in the repository and in `messages/` of the installed package (pack.mjs copies
 * them); both are found by walking up from this file, which lives at a different depth in each layout.
 */
export class Messages {
  private constructor(
    private readonly file: string,
    private readonly entries: ReadonlyMap<string, string>,
  ) {}

  static load(name: string): Messages {
    const file = join(messagesDir(name), `${name}.md`);
    return new Messages(file, parseMessages(readFileSync(file, 'utf8')));
  }

  /** The text under `# key`, with `%s` placeholders filled from `tokens` in order. */
  getMessage(key: string, tokens: readonly (string | number)[] = []): string {
    const text = this.entries.get(key);
    if (text === undefined) throw new Error(`${this.file} has no "# ${key}" message.`);
    return tokens.length ? format(text, ...tokens) : text;
  }

  /** `# examples` as a list of `- What it does:` items, each followed by its indented command line. */
  getExamples(key = 'examples'): HelpExample[] {
    return this.getMessage(key)
      .split(/^- /m)
      .filter((item) => item.trim() !== '')
      .map((item) => {
        const [description, ...command] = item.split('\n');
        return { description: description.trim().replace(/:$/, ''), command: command.join('\n').trim() };
      });
  }
}

function parseMessages(markdown: string): Map<string, string> {
  const entries = new Map<string, string>();
  let key: string | undefined;
  let lines: string[] = [];
  const flush = () => key !== undefined && entries.set(key, lines.join('\n').trim());
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^# (\S+)\s*$/.exec(line);
    if (heading) {
      flush();
      key = heading[1];
      lines = [];
    } else {
      lines.push(line);
    }
  }
  flush();
  return entries;
}

function messagesDir(name: string): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'messages', `${name}.md`))) return join(dir, 'messages');
    if (dirname(dir) === dir) throw new Error(`messages/${name}.md was not found above ${__dirname}.`);
  }
}
