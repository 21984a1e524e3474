// Writing to the terminal: what reaches it from others' text (hub tools, reviews, providers' answers)
// carries nothing a terminal obeys. No imports: `svc --help` and the error lines load this alone.
/**
 * Text as a terminal may show it: much of what the CLI prints was written by other teams (hub tools'
 * names and summaries, reviews) or by providers, and a terminal obeys what it is sent. Escape
 * sequences (colours, a window title, a cursor move) are dropped whole; every other control
 * character but a line break and a tab, and every invisible formatting one (bidi overrides,
 * zero-width), is dropped too.
 */
export const shown = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what this finds, to drop them
  text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g, '').replace(/[^\P{Cc}\n\t]|\p{Cf}/gu, '');

export const out = (text: string): void => {
  const safe = shown(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
};
export const note = (text: string): void => {
  process.stderr.write(`${shown(text)}\n`);
};
/** JSON whose strings hold, as `\u` escapes, the characters a terminal would act on or hide: the same document for a program, nothing for a terminal to obey */
export const jsonText = (data: unknown): string =>
  JSON.stringify(data).replace(/[\u007f-\u009f]|\p{Cf}/gu, (c) => Array.from(c, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
export const printJson = (data: unknown): void => {
  process.stdout.write(`${jsonText(data)}\n`);
};
