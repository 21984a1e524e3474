// field=value words into a JSON body, each read as the type its field declares.
import { describe, expect, it } from 'vitest';
import { kindOf, parseFields } from '../../cli/fields.ts';
import type { CliFailure } from '../../cli/fail.ts';

describe('parseFields', () => {
  it('reads each value as its declared type, text when undeclared', () => {
    const kinds = { limit: kindOf('int'), score: kindOf('number'), ok: kindOf('boolean'), keywords: kindOf('list'), extra: kindOf('object'), q: kindOf('str') };
    expect(parseFields(['q=a=b c', 'limit=5', 'score=0.5', 'ok=false', 'keywords=a, b,', 'extra={"x":1}', 'zip=01234'], kinds)).toEqual({
      q: 'a=b c',
      limit: 5,
      score: 0.5,
      ok: false,
      keywords: ['a', 'b'],
      extra: { x: 1 },
      zip: '01234',
    });
    expect(parseFields(['keywords=["a,b"]'], kinds)).toEqual({ keywords: ['a,b'] });
  });

  it('sends field:=JSON as written, whatever the type', () => {
    expect(parseFields(['limit:=10', 'name:="007"', 'tags:=[1,2]', 'empty='])).toEqual({ limit: 10, name: '007', tags: [1, 2], empty: '' });
  });

  it('refuses what it cannot read, as a usage error (exit 2) naming the field', () => {
    const bad = (words: string[], kinds = {}) => {
      try {
        parseFields(words, kinds);
      } catch (e) {
        return e as CliFailure;
      }
      throw new Error('accepted');
    };
    expect(bad(['limit=ten'], { limit: 'integer' as const })).toMatchObject({ exitCode: 2, message: "limit takes a whole number; 'ten' is not one." });
    expect(bad(['limit=1.5'], { limit: 'integer' as const }).message).toBe("limit takes a whole number; '1.5' is not one.");
    expect(bad(['ok=maybe'], { ok: 'boolean' as const }).message).toBe("ok takes true or false; 'maybe' is neither.");
    expect(bad(['x:={nope'])).toMatchObject({ exitCode: 2, message: expect.stringMatching(/^x:= takes JSON/) });
    expect(bad(['jane@stripe.com']).message).toMatch(/'jane@stripe\.com' is not field=value/);
  });
});
