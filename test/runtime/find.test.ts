// GET /catalog/find over a loopback server: the candidates line at once, the judged line when the
// judge answers in time, a chat judge behind an OpenAI-compatible endpoint, the rate limit.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function svc(env: Record<string, string> = {}): Promise<string> {
  const s = await serve(await appContext(FIXTURE_DIST, env));
  closers.push(s.close);
  return s.url;
}

/** A fake chat-completions endpoint: answers `content` once `held` resolves (at once without it), and remembers what it got. */
async function fakeJudge(content: string, held?: Promise<void>): Promise<{ url: string; got: Array<{ body: any; auth?: string }>; answered: () => boolean }> {
  const got: Array<{ body: any; auth?: string }> = [];
  let answered = false;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let text = '';
    for await (const c of req) text += c;
    got.push({ body: JSON.parse(text), auth: req.headers.authorization });
    await held;
    answered = true;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { content } }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, got, answered: () => answered };
}

/** Read an NDJSON stream, handing each line to `seen` as it arrives. */
async function lines(url: string, seen: (json: any) => void = () => {}): Promise<{ status: number; type: string | null; lines: Array<{ json: any }> }> {
  const r = await fetch(url);
  const out: Array<{ json: any }> = [];
  if (r.status !== 200) return { status: r.status, type: r.headers.get('content-type'), lines: [{ json: await r.json() }] };
  const reader = r.body!.getReader();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const json = JSON.parse(buf.slice(0, nl));
      out.push({ json });
      seen(json);
      buf = buf.slice(nl + 1);
    }
  }
  return { status: r.status, type: r.headers.get('content-type'), lines: out };
}

describe('GET /catalog/find', () => {
  it("streams candidates, then the local judge's verdict, as NDJSON", async () => {
    const base = await svc();
    const r = await lines(`${base}/catalog/find?q=${encodeURIComponent('verify an email address')}`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/x-ndjson');
    expect(r.lines.map((l) => l.json.event)).toEqual(['candidates', 'judged']);
    const [c, j] = r.lines.map((l) => l.json);
    expect(c.q).toBe('verify an email address');
    expect(c.candidates[0]).toEqual(
      expect.objectContaining({
        endpoint_id: expect.any(String),
        capability: expect.any(String),
        name: expect.any(String),
        provider: expect.any(String),
        score: expect.any(Number),
      }),
    );
    expect('usd' in c.candidates[0]).toBe(true);
    expect(j.kept.length).toBeGreaterThan(0);
    expect(
      j.kept.every(
        (k: { endpoint_id: string; why: string }) => c.candidates.some((x: { endpoint_id: string }) => x.endpoint_id === k.endpoint_id) && k.why.length > 0,
      ),
    ).toBe(true);
    expect(typeof j.verdict).toBe('string');
  });

  it('the local judge keeps what takes what the caller has and gives what they want, routed first, saying why', async () => {
    const base = await svc();
    const [c, j] = (await lines(`${base}/catalog/find?q=${encodeURIComponent('will jane@acme.com bounce')}`)).lines.map((l) => l.json);
    // a routed entry's price is per hit, as its entry says
    expect(j.kept[0]).toEqual({ endpoint_id: 'svc.people.email.verify', why: expect.stringMatching(/^takes email, returns status; \$[\d.]+ per hit$/) });
    expect(c.candidates.find((x: { endpoint_id: string }) => x.endpoint_id === 'svc.people.email.verify').unit).toBe('hit');
    const capabilityOf = new Map(c.candidates.map((x: { endpoint_id: string; capability: string }) => [x.endpoint_id, x.capability]));
    expect(j.kept.every((k: { endpoint_id: string }) => capabilityOf.get(k.endpoint_id) === 'people.email.verify')).toBe(true);
    expect(j.verdict).toMatch(/^people\.email\.verify takes email, returns status; you have email\./);
  });

  it('the local judge says when the job takes two steps, and when nothing does it', async () => {
    const base = await svc();
    const judged = async (q: string) => (await lines(`${base}/catalog/find?q=${encodeURIComponent(q)}`)).lines[1].json;
    const two = await judged('check deliverability for https://www.linkedin.com/in/jane-doe');
    expect(two.verdict).toMatch(/people\.email\.find takes linkedin_url and returns email, which people\.email\.verify takes; a hub tool could chain them/);
    expect(two.kept.some((k: { why: string }) => k.why.startsWith('step 1: takes linkedin_url, returns email'))).toBe(true);
    const none = await judged('google results for jane@acme.com');
    expect(none.verdict).toMatch(/^No operation takes email and returns results in one step/);
    expect(none.kept[0].why).toMatch(/^returns results, but takes other inputs than email/);
  });

  it('sends the candidates at once and the verdict when a slow judge answers', async () => {
    // the judge answers only once the caller holds the candidates line: a service that waited for
    // the verdict before sending it would never finish
    let release = () => {};
    const judge = await fakeJudge(
      JSON.stringify({
        kept: [
          { endpoint_id: 'svc.people.email.verify', why: 'routed verifier' },
          { endpoint_id: 'evil.injected', why: 'x' },
        ],
        verdict: 'use the routed one',
      }),
      new Promise<void>((r) => {
        release = r;
      }),
    );
    const base = await svc({ SVC_JUDGE_URL: judge.url, SVC_JUDGE_KEY: 'judge-key', SVC_JUDGE_TIMEOUT_MS: '60000' });
    const sequence: string[] = [];
    const r = await lines(`${base}/catalog/find?q=email+verify`, (json) => {
      sequence.push(`${json.event} line (judge answered: ${judge.answered()})`);
      release();
    });
    expect(sequence).toEqual(['candidates line (judge answered: false)', 'judged line (judge answered: true)']);
    expect(r.lines[1].json).toEqual({
      event: 'judged',
      kept: [{ endpoint_id: 'svc.people.email.verify', why: 'routed verifier' }],
      verdict: 'use the routed one',
    });
    expect(judge.got[0].auth).toBe('Bearer judge-key');
    const prompt = JSON.parse(judge.got[0].body.messages[1].content);
    expect(prompt.job).toBe('email verify');
    // the same have/want facts the local judge reads, and each candidate's contract
    expect(prompt).toEqual(expect.objectContaining({ has: expect.any(Array), wants: expect.any(Array) }));
    expect(prompt.candidates.find((c: { endpoint_id: string }) => c.endpoint_id === 'svc.people.email.verify')).toEqual(
      expect.objectContaining({ takes: [['email']], returns: expect.arrayContaining(['status']) }),
    );
  });

  it('leaves the stream with one line when the judge does not answer in time', async () => {
    const judge = await fakeJudge('{}', new Promise<void>(() => {})); // never answers
    const base = await svc({ SVC_JUDGE_URL: judge.url, SVC_JUDGE_TIMEOUT_MS: '300' });
    const r = await lines(`${base}/catalog/find?q=email`);
    expect(r.lines.map((l) => l.json.event)).toEqual(['candidates']);
    // the stream ended on the service's own deadline, with the judge still holding its answer
    expect(judge.got).toHaveLength(1);
    expect(judge.answered()).toBe(false);
  });

  it('leaves the stream with one line when the judge answers garbage', async () => {
    const judge = await fakeJudge('not json at all');
    const base = await svc({ SVC_JUDGE_URL: judge.url });
    expect((await lines(`${base}/catalog/find?q=email`)).lines.map((l) => l.json.event)).toEqual(['candidates']);
  });

  it('rate limits per client with 429 and Retry-After', async () => {
    const base = await svc({ SVC_FIND_RATE_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await fetch(`${base}/catalog/find?q=email`).then(async (r) => {
            await r.text();
            return r;
          })
        ).status,
      ).toBe(200);
    const r = await fetch(`${base}/catalog/find?q=email`);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await r.json()).detail).toMatch(/retry/i);
  });

  it('a description over 500 characters is a 422', async () => {
    const base = await svc();
    const r = await fetch(`${base}/catalog/find?q=${'a'.repeat(501)}`);
    expect(r.status).toBe(422);
    expect((await r.json()).detail[0].loc).toEqual(['query', 'q']);
  });
});
