import { hintToAdd } from './issue-hint';

describe('hintToAdd', () => {
  it('returns a hint the message does not contain yet', () => {
    expect(hintToAdd('$.nodes.db.dbConfig.databaseName: "Main" is not a database of this sync (synced: main).', 'did you mean main?')).toBe('did you mean main?');
  });

  it('drops a hint the message already says, whatever its case', () => {
    expect(hintToAdd('$.nodes.Api: no node has the id "Api" (ids are case-sensitive). Hint: did you mean API?', 'did you mean API?')).toBeUndefined();
    expect(hintToAdd('"Rectangle" is not a valid shape. Did you mean "rectangle"?', 'did you mean "rectangle"?')).toBeUndefined();
    expect(hintToAdd('no hint here', undefined)).toBeUndefined();
  });
});
