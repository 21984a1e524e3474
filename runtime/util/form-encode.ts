// Text as a query string or form body carries it (application/x-www-form-urlencoded), written
// exactly as URLSearchParams writes it, without making one: in the server a URLSearchParams per
// child request cost about 5 µs of a routed call's CPU (bench/README.md, session 10).

/** what the form encoding leaves as it is: letters, digits and `*-._` */
const PLAIN = /^[\w*.-]*$/;
/** what encodeURIComponent leaves that the form encoding does not, and its escaped space */
const AFTER_URI = /[!'()~]|%20/g;
const FIXED: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E', '%20': '+' };

export function formEncode(text: string): string {
  if (PLAIN.test(text)) return text;
  let uri: string;
  try {
    uri = encodeURIComponent(text);
  } catch {
    // a lone surrogate, which encodeURIComponent refuses and URLSearchParams writes as U+FFFD
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return uri.replace(AFTER_URI, (c) => FIXED[c]);
}

/** `qs` with one more `name=value` pair, both form-encoded, as URLSearchParams.toString joins its pairs */
export const withPair = (qs: string, name: string, value: string): string => `${qs}${qs ? '&' : ''}${formEncode(name)}=${formEncode(value)}`;
