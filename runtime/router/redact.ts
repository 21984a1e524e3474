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

/** The parsed answer, re-read from redacted text only when its text carries a secret. */
export function redactAnswer<T>(value: T, text: string, key: string): T {
  if (value === null || value === undefined) return value;
  const clean = redact(text, key);
  return clean === text ? value : (JSON.parse(clean) as T);
}
