import { HttpErrorResponse } from '@angular/common/http';
import { Autosave } from './autosave';

function conflictError(): HttpErrorResponse {
  return new HttpErrorResponse({
    status: 409,
    error: { error: { code: 'draft_version_conflict', message: 'Someone saved first.', details: [{ message: 'saved by Ann', currentVersion: 7, updatedAt: '2026-01-01T00:00:00Z', updatedBy: null }] } },
  });
}

describe('Autosave', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('saves once about a second after the last of several changes, over the version it knows', async () => {
    const saves: [string, number][] = [];
    const autosave = new Autosave<string>(async (doc, version) => {
      saves.push([doc, version]);
      return { version: version + 1 };
    });
    autosave.reset(3);
    autosave.changed('a');
    jest.advanceTimersByTime(600);
    autosave.changed('ab');
    expect(autosave.state()).toBe('pending');
    jest.advanceTimersByTime(999);
    expect(saves).toEqual([]);
    jest.advanceTimersByTime(1);
    await jest.runAllTimersAsync();
    expect(saves).toEqual([['ab', 3]]);
    expect(autosave.state()).toBe('saved');
    expect(autosave.version()).toBe(4);

    autosave.changed('abc');
    await autosave.saveNow();
    expect(saves).toEqual([['ab', 3], ['abc', 4]]);
  });

  it('saves a change made during a save right after it, over the new version', async () => {
    const saves: [string, number][] = [];
    let release: () => void = () => undefined;
    const autosave = new Autosave<string>((doc, version) => {
      saves.push([doc, version]);
      return new Promise((resolve) => (release = () => resolve({ version: version + 1 })));
    }, 10);
    autosave.reset(1);
    autosave.changed('a');
    jest.advanceTimersByTime(10);
    expect(autosave.state()).toBe('saving');
    autosave.changed('ab');
    expect(autosave.state()).toBe('saving');
    release();
    await jest.advanceTimersByTimeAsync(10);
    release();
    await jest.runAllTimersAsync();
    expect(saves).toEqual([['a', 1], ['ab', 2]]);
    expect(autosave.state()).toBe('saved');
  });

  it('stops on a version conflict, names who saved, and keeps the unsaved document', async () => {
    let calls = 0;
    const autosave = new Autosave<string>(async () => {
      calls++;
      throw conflictError();
    }, 10);
    autosave.reset(5);
    autosave.changed('mine');
    await jest.runAllTimersAsync();
    expect(autosave.state()).toBe('conflict');
    expect(autosave.conflict()?.currentVersion).toBe(7);
    autosave.changed('mine, more');
    await jest.runAllTimersAsync();
    expect(calls).toBe(1);
    expect(autosave.unsaved()).toBe('mine, more');
    expect(autosave.dirty()).toBe(true);

    autosave.reset(7);
    expect(autosave.state()).toBe('saved');
    expect(autosave.conflict()).toBeNull();
  });

  it('keeps a refused document and tries again on the next change', async () => {
    const outcomes = [new HttpErrorResponse({ status: 422, error: { error: { code: 'draft_invalid', message: 'The graph is invalid.', details: [{ path: '$.nodes[0].id', message: '$.nodes[0].id: bad' }] } } }), null];
    const autosave = new Autosave<string>(async (_doc, version) => {
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
      return { version: version + 1 };
    }, 10);
    autosave.reset(1);
    autosave.changed('bad');
    await jest.runAllTimersAsync();
    expect(autosave.state()).toBe('error');
    expect(autosave.failure()?.details[0].path).toBe('$.nodes[0].id');
    autosave.changed('good');
    await jest.runAllTimersAsync();
    expect(autosave.state()).toBe('saved');
    expect(autosave.failure()).toBeNull();
    expect(autosave.version()).toBe(2);
  });
});
