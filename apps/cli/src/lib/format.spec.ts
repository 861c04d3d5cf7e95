import { formatBytes, formatProblem, progressPrinter, renderTable } from './format';

describe('format', () => {
  it('aligns table columns', () => {
    expect(renderTable(['A', 'LONGER'], [['xx', 'y'], ['z', 'w']])).toBe(['A   LONGER', '--  ------', 'xx  y', 'z   w'].join('\n'));
  });

  it('formats a problem as file:line:column, code, message, path and hint', () => {
    expect(formatProblem({ severity: 'error', code: 'context_invalid_value', message: 'bad type', file: 'a.json', line: 3, column: 9, path: '$.nodes.x.type', hint: 'Did you mean shape?' })).toBe(
      'error    a.json:3:9  context_invalid_value  bad type [at $.nodes.x.type] (Did you mean shape?)',
    );
    expect(formatProblem({ severity: 'warning', code: 'unknown_key', message: 'Unknown key "x" is ignored.', path: 'service.x' })).toBe('warning  unknown_key  Unknown key "x" is ignored. [at service.x]');
  });

  it('prints a hint once when the message already contains it', () => {
    const printed = formatProblem({
      severity: 'warning',
      code: 'context_unmatched_key',
      message: '$.nodes.Api: no node has the id "Api" (ids are case-sensitive). Hint: did you mean API?',
      file: 'd.json',
      line: 3,
      path: '$.nodes.Api',
      hint: 'did you mean API?',
    });
    expect(printed).toBe('warning  d.json:3  context_unmatched_key  $.nodes.Api: no node has the id "Api" (ids are case-sensitive). Hint: did you mean API?');
    const oneOf = formatProblem({ severity: 'error', code: 'context_invalid_value', message: '"shap" is not a valid node type. Did you mean "shape"?', hint: 'did you mean "shape"?' });
    expect(oneOf.match(/did you mean "shape"\?/gi)).toHaveLength(1);
  });

  it('names the artifact when a problem has no file', () => {
    expect(formatProblem({ severity: 'error', code: 'payload_too_large', message: 'too big', artifact: 'flow refunds' })).toBe('error    [flow refunds]  payload_too_large  too big');
  });

  it('formats sizes', () => {
    expect([formatBytes(12), formatBytes(2048), formatBytes(3 * 1024 * 1024)]).toEqual(['12 B', '2.0 KiB', '3.0 MiB']);
  });

  it('redraws progress in place on a terminal and prints plain first/last lines otherwise', () => {
    const tty: string[] = [];
    const terminal = progressPrinter((text) => tty.push(text), true);
    terminal.update(0, 3, 'a');
    terminal.update(1, 3, 'b');
    terminal.done();
    expect(tty).toEqual(['\r\x1b[K[0/3] a\r', '\r\x1b[K[1/3] b\r', '\r\x1b[K\r']);

    const log: string[] = [];
    const plain = progressPrinter((text) => log.push(text), false);
    plain.update(0, 3, 'a');
    plain.update(1, 3, 'b');
    plain.update(3, 3, 'done');
    plain.done();
    expect(log).toEqual(['[0/3] a', '[3/3] done']);
  });
});
