// Every call template of the real catalog ("Run it" in GET /catalog/endpoints/{id}, `svc show` and the
// dashboard), sent as pasted to svc on loopback with the sandbox's keys, as a dry run: none is refused
// for its input by the checks svc makes of every call before a provider is paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(REAL_DIST);
  // the team's own key for every provider, so an own-key-only operation is checked too, not refused for want of a key
  for (const [provider, key] of Object.entries(w.keys)) await w.ctx.state.setOwnKey(w.teamId, provider, key);
});
afterAll(() => w.close());

interface Pasted {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a curl template asks for, read as a shell reads call-template.ts's quoting; `$SVC_TOKEN` is the team's token. */
function pasted(template: string, token: string): Pasted {
  const words = [...template.matchAll(/"([^"]*)"|'((?:[^']|'\\'')*)'|(\S+)/g)].map(([, dq, sq, bare]) =>
    dq !== undefined ? dq.replaceAll('$SVC_TOKEN', token) : sq !== undefined ? sq.replaceAll(`'\\''`, `'`) : bare,
  );
  const call: Pasted = { method: 'GET', url: '', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === '-X') call.method = words[++i];
    else if (word === '-H') {
      const [name, ...value] = words[++i].split(':');
      call.headers[name] = value.join(':').trim();
    } else if (word === '-d') call.body = words[++i];
    else if (!word.startsWith('-')) call.url = word;
  }
  return call;
}

describe('call templates', () => {
  it('every one, provider operations and routed entries alike, is taken as pasted: a dry run, never a 422', async () => {
    const ids = [...w.ctx.catalog.endpointIds()];
    // templates name svc's public URL, which is not this test server's
    const meta = await (await fetch(`${w.url}/meta`)).json();
    /** the refusal of one template as a line naming it, or null when svc took it */
    const refusal = async (id: string): Promise<string | null> => {
      const template = (await (await fetch(`${w.url}/catalog/endpoints/${id}`)).json()).call_template as string;
      const call = pasted(template, w.token);
      const r = await fetch(call.url.replace(meta.proxy_url, `${w.url}${meta.proxy_prefix}`), {
        method: call.method,
        headers: { ...call.headers, 'x-svc-route-dry-run': '1' },
        body: call.body,
      });
      const answer = await r.json();
      return r.status === 200 && Array.isArray(answer.plan) ? null : `${id} ${r.status}: ${JSON.stringify(answer.detail)}\n  ${template}`;
    };
    const refused: string[] = [];
    // a few at a time: nothing is called, so svc answers as fast as loopback carries them
    for (let i = 0; i < ids.length; i += 16) {
      for (const line of await Promise.all(ids.slice(i, i + 16).map(refusal))) if (line) refused.push(line);
    }
    expect(refused).toEqual([]);
    expect(ids.length).toBeGreaterThan(450);
  });
});
