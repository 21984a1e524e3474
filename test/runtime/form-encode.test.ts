// Query text written without a URLSearchParams per call must be the very text URLSearchParams writes.
import { describe, expect, it } from 'vitest';
import { formEncode } from '../../runtime/util/form-encode.ts';

const reference = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);

describe('formEncode', () => {
  it('writes every character of the first 1,024 code points as URLSearchParams does', () => {
    for (let c = 0; c < 1024; c++) {
      const text = `a${String.fromCharCode(c)}z`;
      expect(formEncode(text), `code point ${c}`).toBe(reference(text));
    }
  });

  it.each([
    '', 'plain-text_1.2*', 'jane.doe+tag@acme.com', 'coffee roasters berlin', "it's (x)!~", 'ü/é?&=#%', '東京 ☕', '😀 emoji', 'a\u{10FFFF}b',
    '\ud800 lone high', 'lone low \udc00', '%20 already escaped', 'a+b=c&d',
  ])('writes %j as URLSearchParams does (lone surrogates as U+FFFD)', (text) => {
    expect(formEncode(text)).toBe(reference(text));
  });
});
