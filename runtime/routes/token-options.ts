// A new token's name and expiry as the team's and the admin's token routes take them: checked once here.
import { invalid } from '../util/fail.ts';
import type { TokenOptions } from '../state/index.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// a zone is required: a time without one would mean another instant on each machine that reads it
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** the body's options; a 422 naming `expires_at` when it is not a date-time with a zone, or not in the future */
export function tokenOptions(body: { name?: string; expires_at?: string }, now = Date.now()): TokenOptions {
  const options: TokenOptions = {};
  if (body.name !== undefined) options.name = body.name.trim();
  if (body.expires_at !== undefined) {
    const text = body.expires_at.trim();
    const ms = DATE_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(ms))
      invalid([
        {
          loc: ['body', 'expires_at'],
          msg: "'expires_at' must be an ISO 8601 date-time with a zone, such as 2027-01-31T00:00:00Z, or a date such as 2027-01-31.",
          type: 'value_error.datetime',
        },
      ]);
    if (ms <= now)
      invalid([
        { loc: ['body', 'expires_at'], msg: `'expires_at' must be in the future; ${new Date(ms).toISOString()} has passed.`, type: 'value_error.datetime' },
      ]);
    options.expiresAt = new Date(ms).toISOString();
  }
  return options;
}
