import assert from 'node:assert/strict';
import { completeJsonLines } from './json-lines';

describe('reading JSON lines of a growing file', () => {
  it('a last line still being written (no newline yet) is not a line; complete ones are', () => {
    assert.deepEqual(completeJsonLines(''), []);
    assert.deepEqual(completeJsonLines('{"kind":"sta'), []);
    assert.deepEqual(completeJsonLines('{"a":1}\n{"b":'), [{ a: 1 }]);
    assert.deepEqual(completeJsonLines('{"a":1}\n{"b":2}\n'), [{ a: 1 }, { b: 2 }]);
  });
});
