// A provider may echo the key it was given (in an error, a "request" block, a next-page URL); such
// text never reaches the caller.
import { Remembered } from '../../language/remember.ts';

const MIN_SECRET = 6;

/**
 * The forms of a key that could appear in text: whole, each long part of a two-part key, URL-encoded.
 * Worked out once per key in use (platform keys, a few own keys), not on every answer.
 */
const secretsOf = new Remembered<string[]>(1_000, (key) => [
  ...new Set([key, ...key.split(':').filter((p) => p.length >= MIN_SECRET), encodeURIComponent(key)]),
]);

export function redact(text: string, ...keys: Array<string | null | undefined>): string {
  let out = text;
  for (const key of keys) {
    if (!key || key.length < MIN_SECRET) continue;
    for (const secret of secretsOf.get(key)) if (out.includes(secret)) out = out.replaceAll(secret, '[redacted]');
  }
  return out;
}
