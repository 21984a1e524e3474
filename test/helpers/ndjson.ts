// Sending a batch and reading its NDJSON answer, whole or line by line as it streams.
export type Line = Record<string, any>;

export const ndjson = (rows: object[]): string => rows.map((r) => JSON.stringify(r)).join('\n');

/** every line of an NDJSON answer, parsed */
export async function readLines(r: Response): Promise<Line[]> {
  const text = await r.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/** the lines of a batch answer as they stream, each parsed */
export async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    buffered += decoder.decode(r.value, { stream: true });
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const p of parts) if (p.trim()) yield JSON.parse(p);
  }
}
