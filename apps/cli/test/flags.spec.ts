import { COMMANDS } from '../src/commands';

type Definition = Record<string, unknown>;

/** What a script depends on: names, kinds, short names, defaults, repetition. Help wording is left out. */
function describeDefinition(definition: Definition): Definition {
  const kept = ['type', 'char', 'required', 'default', 'multiple', 'multipleNonGreedy', 'options', 'min', 'max', 'allowNo', 'exclusive', 'dependsOn', 'helpValue'];
  return Object.fromEntries(kept.filter((key) => definition[key] !== undefined).map((key) => [key, definition[key]]));
}

describe('the command line of service-cli', () => {
  it('keeps every command, argument and flag (CI scripts call them: a change must be deliberate)', () => {
    const commandLine = Object.fromEntries(
      Object.entries(COMMANDS).map(([id, command]) => [
        id,
        {
          enableJsonFlag: command.enableJsonFlag,
          strict: command.strict,
          args: Object.fromEntries(Object.entries(command.args ?? {}).map(([name, arg]) => [name, describeDefinition(arg as unknown as Definition)])),
          flags: Object.fromEntries(
            Object.entries({ ...command.baseFlags, ...command.flags })
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, flag]) => [name, describeDefinition(flag as unknown as Definition)]),
          ),
        },
      ]),
    );
    expect(commandLine).toMatchSnapshot();
  });
});
