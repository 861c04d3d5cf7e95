import { sentence } from './sentence';

describe('sentence', () => {
  it.each([
    ['The user cancelled the sign-in', 'The user cancelled the sign-in.'],
    ['The user cancelled the sign-in.', 'The user cancelled the sign-in.'],
    ['Really?  ', 'Really?'],
    ['Stop!', 'Stop!'],
    ['Could not reach https://idp.example (HTTP 500)', 'Could not reach https://idp.example (HTTP 500).'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(sentence(input)).toBe(expected);
  });
});
