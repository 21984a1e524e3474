// The dashboard says svc's own reason when a request is refused: a 422's list of sentences as well
// as a plain sentence, never only "… answered 422".
import { expect, it } from 'vitest';
import { detailText } from '../../web/lib/data.ts';

it("says svc's reason, whether a sentence or a 422's list", () => {
  expect(detailText({ detail: 'No tool here.' }, 'fallback')).toBe('No tool here.');
  expect(
    detailText(
      {
        detail: [
          { loc: ['body', 'expires_at'], msg: "'expires_at' must be in the future.", type: 'value_error' },
          { loc: ['body', 'name'], msg: 'Name it.' },
        ],
      },
      'fallback',
    ),
  ).toBe("'expires_at' must be in the future. Name it.");
  expect(detailText(null, 'teams/me/tokens answered 500')).toBe('teams/me/tokens answered 500');
  expect(detailText({ detail: [{ loc: ['body'] }] }, 'fallback')).toBe('fallback');
});
