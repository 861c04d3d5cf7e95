import { MermaidPoolError, MermaidPoolErrorCode } from '@sc/diagram/node';
import { checkDiagram, DIAGRAMS_PER_PARSER_THREAD, parserThreads } from './diagram-check';

describe('checkDiagram', () => {
  it('fails the diagram with the parser pool’s code when the parse times out', async () => {
    const timedOut = () => Promise.reject(new MermaidPoolError(MermaidPoolErrorCode.ParseTimeout, 'Parsing the diagram took longer than 60000 ms and was stopped.'));
    const check = await checkDiagram({ diagramFile: 'big.mmd', mermaid: 'flowchart LR\n  a --> b\n' }, timedOut);
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual([
      { severity: 'error', code: 'diagram_parse_timeout', message: 'Could not check this diagram: Parsing the diagram took longer than 60000 ms and was stopped.', file: 'big.mmd' },
    ]);
  });

  it('fails the diagram with diagram_check_failed on any other failure of the library', async () => {
    const broken = () => Promise.reject(new Error('boom'));
    const check = await checkDiagram({ diagramFile: 'x.mmd', mermaid: 'flowchart LR\n' }, broken);
    expect(check.problems).toMatchObject([{ code: 'diagram_check_failed', file: 'x.mmd' }]);
  });
});

describe('parserThreads', () => {
  it('starts one thread for a small repository and a second only past DIAGRAMS_PER_PARSER_THREAD diagrams', () => {
    expect(parserThreads(0, 8)).toBe(1);
    expect(parserThreads(8, 8)).toBe(1);
    expect(parserThreads(DIAGRAMS_PER_PARSER_THREAD, 8)).toBe(1);
    expect(parserThreads(DIAGRAMS_PER_PARSER_THREAD + 1, 8)).toBe(2);
    expect(parserThreads(500, 8)).toBe(2);
  });

  it('never starts more threads than the machine has CPUs', () => {
    expect(parserThreads(500, 1)).toBe(1);
  });
});
