// A child's HTTP request from the call's fields, per its `request` mapping: each field only where
// the child wants it, constants added, the key placed. Nothing here can leave the provider's host.
import type { OperationRuntime, ProviderRuntime, RequestSrc } from '../../language/types.ts';
import { setPath } from '../../language/json-path.ts';
import { transforms } from '../../language/transforms.ts';
import { isUnsafePath } from '../../language/paths.ts';
import { baseUrl, placeKey, type Env, type QueryParams } from '../../language/provider-auth.ts';
import { perObject, Remembered } from '../../language/remember.ts';

/**
 * One request to a provider. The client sends `origin` and `path` as they are; the parsed `url` is
 * made only when asked for (pass-through, tests), not on every call. `credential` is the key the
 * request carries: the client keeps connections apart per origin and credential.
 */
export class OutgoingRequest {
  constructor(
    readonly method: string,
    /** scheme, host and port */
    readonly origin: string,
    /** path and query, as sent */
    readonly path: string,
    readonly headers: Record<string, string>,
    readonly body: string | null,
    readonly credential = '',
  ) {}

  static to(method: string, url: URL, headers: Record<string, string>, body: string | null, credential = ''): OutgoingRequest {
    return new OutgoingRequest(method, url.origin, `${url.pathname}${url.search}`, headers, body, credential);
  }

  get url(): URL {
    return new URL(`${this.origin}${this.path}`);
  }
}

/** The URL of a path on the provider's host, or null if it would leave it (dot segments, encoded slashes). */
export function providerUrl(provider: ProviderRuntime, env: Env, path: string): URL | null {
  const target = isUnsafePath(path) ? null : joinedTarget(provider, env, path);
  return target === null ? null : new URL(`${target.origin}${target.path}`);
}

/**
 * A provider's base URL, parsed once per environment, with the paths resolved under it. Paths are
 * remembered per base (most children call the same few paths again and again), keyed by the path
 * alone: a catalog path is the same string on every call, so its lookup hashes nothing new.
 */
class Base {
  readonly paths: Remembered<Target | null>;

  constructor(
    readonly origin: string,
    readonly prefix: string,
  ) {
    this.paths = new Remembered(1_000, (path) => this.resolve(path));
  }

  /** `path` under the base, or null if resolving it leaves the base's host or path prefix */
  private resolve(path: string): Target | null {
    const url = new URL(`${this.prefix}${path}`, this.origin);
    return url.origin === this.origin && url.pathname.startsWith(this.prefix) ? { origin: this.origin, path: `${url.pathname}${url.search}` } : null;
  }
}

const basesIn = perObject((_env: Env) => new Map<string, Base>());

function parsedBase(provider: ProviderRuntime, env: Env): Base {
  const byService = basesIn(env);
  let base = byService.get(provider.service);
  if (!base) {
    const url = new URL(`${baseUrl(provider, env)}/`);
    base = new Base(url.origin, url.pathname.replace(/\/$/, ''));
    byService.set(provider.service, base);
  }
  return base;
}

/** A resolved path on a provider's host: the origin, and the path and query as the client sends them. */
interface Target {
  origin: string;
  path: string;
}

function joinedTarget(provider: ProviderRuntime, env: Env, path: string): Target | null {
  return parsedBase(provider, env).paths.get(path);
}

/**
 * A child request's query: the mapping's constants, its fields, and the key where the provider takes
 * it there, placed as URLSearchParams.set places a parameter (in the place of one of its name, else
 * last), written by URLSearchParams.
 */
class ChildQuery implements QueryParams {
  private params: Record<string, unknown>;

  constructor(constants: Record<string, unknown> | undefined) {
    // Copied with Object.assign, not spread: on Node 20 an object spread from another and then given
    // a property gets a new hidden class on every call (about 1 µs each in a loop, and several in the
    // server, bench/README.md); Object.assign's copies share one.
    this.params = Object.assign({}, constants);
  }

  /** a mapped field (names are literal: `domains[]` is sent as `domains[]=…`, as PHP-style APIs expect) */
  put(name: string, value: unknown): void {
    this.params[name] = value;
  }

  set(name: string, value: string): void {
    if (this.params[name] === null || this.params[name] === undefined) delete this.params[name];
    this.params[name] = value;
  }

  /** the pairs: one per item of a list, an object as its JSON, none for null */
  text(): string {
    const qs = new URLSearchParams();
    for (const name in this.params) {
      const value = this.params[name];
      if (Array.isArray(value)) for (const v of value) qs.append(name, String(v));
      else if (value !== null && value !== undefined) qs.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    return qs.toString();
  }
}

interface CompiledRequest {
  constHeaders: Record<string, string>;
  /** per `map` entry: `query.q` → where 'query', target 'q'; `body.a[0]` → 'body', 'a[0]' */
  targets: Array<{ where: string; target: string }>;
}

/** What a request mapping says that does not change between calls, worked out once per mapping. */
const compiled = perObject(
  (request: RequestSrc): CompiledRequest => ({
    constHeaders: Object.fromEntries(Object.entries(request.const?.header ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    targets: request.map.map((m) => {
      const cut = m.to.search(/[.[]/);
      const where = m.to.slice(0, cut);
      const target = m.to.slice(cut).replace(/^\./, '');
      return { where, target: where === 'header' ? target.toLowerCase() : target };
    }),
  }),
);

export function buildChildRequest(
  op: OperationRuntime,
  provider: ProviderRuntime,
  request: RequestSrc,
  fields: Record<string, unknown>,
  key: string,
  env: Env,
): OutgoingRequest {
  const query = new ChildQuery(request.const?.query);
  const path: Record<string, string> = Object.assign({}, request.const?.path); // not spread, as ChildQuery says
  const { constHeaders, targets } = compiled(request);
  const headers: Record<string, string> = { accept: 'application/json', ...constHeaders };
  let body: Record<string, unknown> | unknown[] | null =
    request.const?.body !== undefined ? (structuredClone(request.const.body) as Record<string, unknown>) : null;
  for (let i = 0; i < request.map.length; i++) {
    const m = request.map[i];
    let value = fields[m.from] ?? m.default;
    if (value === undefined || value === null) continue;
    if (m.transform) value = transforms[m.transform](value);
    if (typeof value === 'number' && m.max !== undefined) value = Math.min(value, m.max);
    if (value === null || value === undefined) continue;
    const { where, target } = targets[i];
    if (where === 'query') query.put(target, value);
    else if (where === 'path') path[target] = String(value);
    else if (where === 'header') headers[target] = String(value);
    else {
      body ??= target.startsWith('[') ? [] : {};
      setPath(body, target, value);
    }
  }
  // The template is checked by the build (isUnsafePath); values are encoded into single segments, so
  // `%2F` inside a value is data, not a way out of the provider's host.
  const filled = op.path.includes('{') ? op.path.replace(/\{([a-zA-Z0-9_]+)\}/g, (_, p: string) => encodeURIComponent(path[p] ?? '')) : op.path;
  const target = joinedTarget(provider, env, filled);
  if (!target) throw new Error(`operation ${op.endpoint_id} resolves outside its provider's host`);
  placeKey(provider, key, query, headers);
  const qs = query.text();
  const sent = qs ? `${target.path}${target.path.includes('?') ? '&' : '?'}${qs}` : target.path;
  if (body !== null) headers['content-type'] = op.input.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  const encoded =
    body === null
      ? null
      : op.input.bodyType === 'form'
        ? new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString()
        : JSON.stringify(body);
  return new OutgoingRequest(op.method, target.origin, sent, headers, encoded, key);
}
