// A provider may echo the key it was given (in an error, a "request" block, a next-page URL); such
// text never reaches the caller.
const MIN_SECRET = 6;

export function redact(text: string, ...keys: Array<string | null | undefined>): string {
  let out = text;
  for (const key of keys) {
    if (!key || key.length < MIN_SECRET) continue;
    for (const secret of new Set([key, ...key.split(':').filter((p) => p.length >= MIN_SECRET), encodeURIComponent(key)])) out = out.split(secret).join('[redacted]');
  }
  return out;
}
