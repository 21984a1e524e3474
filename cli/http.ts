// svc's HTTP API as the CLI calls it: SVC_URL (default http://localhost:8787), SVC_TOKEN for the
// team's own requests. A non-2xx answer becomes a CliFailure with the server's sentence and the exit
// code of its class (4xx refused, 5xx server error).
import { CliFailure, EXIT } from './fail.ts';
import { spin } from './spinner.ts';

export type Env = Record<string, string | undefined>;

export function baseUrl(env: Env = process.env): string {
  const url = (env.SVC_URL || 'http://localhost:8787').replace(/\/+$/, '');
  // `localhost:8787` parses as a URL of scheme `localhost:`, so a missing scheme would only surface
  // later as "Cannot reach null" or a crash: say what is wrong before anything is sent
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new CliFailure(`SVC_URL '${env.SVC_URL}' is not an http(s) address; set it like http://localhost:8787.`, EXIT.usage);
  return url;
}

/**
 * A credential from the environment as a header carries it: surrounding whitespace dropped, and a
 * usage error before anything is sent when what is left holds a line break, a space or another
 * character no header can carry (a token copied with more than itself). The error never shows the
 * value: it is a secret.
 */
export function credential(name: string, value: string): string {
  const token = value.trim();
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new CliFailure(
      `${name} holds a line break, a space or another character a header cannot carry (${token.length} characters in all); set it to the token alone. Nothing was sent.`,
      EXIT.usage,
    );
  return token;
}

/** the team token from SVC_TOKEN; a usage error before anything is sent when it is missing */
export function teamToken(env: Env = process.env): string {
  const token = env.SVC_TOKEN;
  if (!token?.trim())
    throw new CliFailure("SVC_TOKEN is not set: export a team token (svc admin team create prints one; npm run demo prints the demo team's).", EXIT.usage);
  return credential('SVC_TOKEN', token);
}

export interface Answer {
  status: number;
  headers: Headers;
  /** the parsed JSON body, or null when the body is not JSON */
  data: unknown;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** what the spinner says while the answer takes over a second */
  label?: string;
}

/** The request, answered whatever its status; a CliFailure (unreachable) when no answer came. */
export async function send(url: string, opts: RequestOptions = {}): Promise<Response> {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  try {
    return await fetch(url, {
      method,
      headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError')
      throw new CliFailure(`${new URL(url).origin} did not answer within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s.`, EXIT.unreachable);
    const cause = err.cause?.code ?? err.cause?.message ?? err.message;
    throw new CliFailure(`Cannot reach ${new URL(url).origin} (${cause}); is the server running, and is SVC_URL right?`, EXIT.unreachable);
  }
}

export async function request(url: string, opts: RequestOptions = {}): Promise<Answer> {
  const { res, text } = await spin(
    opts.label ?? 'waiting for svc',
    send(url, opts).then(async (r) => ({ res: r, text: await r.text() })),
  );
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON: data stays null */
  }
  // svc answers every success in JSON; anything else is another server at SVC_URL
  if (res.ok && data === null)
    throw new CliFailure(
      `${new URL(url).origin} answered ${new URL(url).pathname} with something other than svc's JSON; is SVC_URL the svc server?`,
      EXIT.unexpected,
    );
  return { status: res.status, headers: res.headers, data };
}

/** A 422's issues, each as `where: what`; none when the answer is not a list of issues. */
export function problemsOf(a: Answer): string[] {
  const detail = (a.data as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail.map((d: { loc?: unknown[]; msg?: string }) => {
    const where = (d.loc ?? []).filter((l) => l !== 'body').join('.');
    return (where && !(d.msg ?? '').includes(String(d.loc?.at(-1))) ? `${where}: ${d.msg}` : d.msg) ?? '';
  });
}

/** The server's sentence for a failed answer: `detail` as it is, or a 422's issues joined into one sentence. */
export function detailOf(a: Answer): string {
  const detail = (a.data as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = problemsOf(a);
    // each issue is a sentence of its own: joined, their full stops would read ".;"
    return parts.length > 1 ? `${parts.map((p) => p.replace(/\.$/, '')).join('; ')}.` : (parts[0] ?? '');
  }
  return `the server answered HTTP ${a.status}`;
}

export function failureOf(a: Answer): CliFailure {
  return new CliFailure(detailOf(a), a.status >= 500 ? EXIT.server : EXIT.refused, a.data);
}

/** the parsed body of a 2xx answer; otherwise the failure */
export async function ok<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const a = await request(url, opts);
  if (a.status >= 200 && a.status < 300) return a.data as T;
  throw failureOf(a);
}

/** GET or POST/PUT/DELETE on SVC_URL as the team of SVC_TOKEN */
export function asTeam<T>(path: string, opts: RequestOptions = {}, env: Env = process.env): Promise<T> {
  return ok<T>(`${baseUrl(env)}${path}`, { ...opts, headers: { 'x-svc-token': teamToken(env), ...opts.headers } });
}

/** an id in a path, `@N` kept readable (`tool@2`) */
export const pathId = (id: string): string => encodeURIComponent(id).replace(/%40/g, '@');
