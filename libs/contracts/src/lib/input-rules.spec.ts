import { findUnstorableCharacter, textFieldProblem } from './input-rules';

describe('findUnstorableCharacter', () => {
  it('finds a NUL and unpaired surrogates, and passes paired ones', () => {
    expect(findUnstorableCharacter('plain text, émoji 😀')).toBeUndefined();
    expect(findUnstorableCharacter('ab\u0000c')).toEqual({ index: 2, description: 'the NUL character (U+0000)' });
    expect(findUnstorableCharacter('a\ud800b')).toMatchObject({ index: 1, description: expect.stringContaining('U+D800') });
    expect(findUnstorableCharacter('a\udc00')).toMatchObject({ index: 1, description: expect.stringContaining('U+DC00') });
    expect(findUnstorableCharacter('😀\ud83d')).toMatchObject({ index: 2 });
  });
});

describe('textFieldProblem', () => {
  it('names the length first, then an unstorable character with its position', () => {
    expect(textFieldProblem('abc', 3)).toBeUndefined();
    expect(textFieldProblem('abcd', 3)).toEqual({ code: 'text_too_long', message: 'It is 4 characters long; at most 3 are allowed.' });
    expect(textFieldProblem('a\u0000', 3)).toEqual({ code: 'unstorable_character', message: 'It contains the NUL character (U+0000), which cannot be stored (character 2).' });
  });
});
