// Sending a batch and reading its NDJSON answer, line by line as it streams.
export type Line = Record<string, any>;

export const ndjson = (rows: object[]): string => rows.map((r) => JSON.stringify(r)).join('\n');

/** every line of an NDJSON answer, parsed */
export async function readLines(r: Response): Promise<Line[]> {
  const text = await r.text();
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}
