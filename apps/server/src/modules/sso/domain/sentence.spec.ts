import { sentence } from './sentence';

describe('sentence', () => {
  it.each(['The user cancelled the sign-in', 'Could not reach https://idp.example (HTTP 500)'])('ends %j with a full stop', (text) => {
    expect(sentence(text)).toBe(`${text}.`);
  });

  it.each(['The user cancelled the sign-in.', 'Stop!', ''])('keeps %j as it is: it already ends a sentence, or is empty', (text) => {
    expect(sentence(text)).toBe(text);
  });

  it('drops trailing white space before deciding', () => {
    expect(sentence('Really?  ')).toBe('Really?');
  });
});
