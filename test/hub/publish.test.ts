// Publishing: every file problem at once with its file and JSON pointer, templates checked against
// the input schema, the step order and each step's output contract; the seed's state table rows for
// a new version (live, failed, unchecked then checked later); ids and versions under concurrency.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';

let w: HubWorld;
beforeAll(async () => {
  w = await hubWorld();
});
afterAll(() => w.close());

const publish = (tool_id: string, files: Record<string, string>, token?: string) => w.req('POST', '/hub/tools', { tool_id, files }, token);
const locs = (body: { detail: Array<{ loc: unknown[] }> }) => body.detail.map((d) => d.loc.join(' '));

describe('files that cannot work are refused with every problem at once', () => {
  it('names the file and the JSON pointer of each problem, and stores nothing', async () => {
    const r = await publish(
      'broken-tool',
      emailTool((f) => {
        (f.tool.steps as Array<Record<string, unknown>>)[1].with = { email: '{{steps.find.output.mail}}' };
        f.tool.output = { email: '{{input.emial}}', status: '{{steps.later.output.status}}', x: '{{ process.exit() }}', y: ['{{input.domain}}'] };
        f.check = { input: { domain: 7 }, expect: { nope: 1 } };
      }),
    );
    expect(r.status).toBe(422);
    expect(locs(r.body)).toEqual(
      expect.arrayContaining([
        'body files tool.json /steps/1/with/email', // a field people.email.find never returns
        'body files tool.json /output/email', // an input field the input schema does not declare
        'body files tool.json /output/status', // a step that does not exist
        'body files tool.json /output/x', // not a template svc understands
        'body files tool.json /output/y', // a template inside a list would be sent as it is
        'body files check.json /input/domain',
        'body files check.json /input/full_name',
        'body files check.json /expect/nope',
      ]),
    );
    const never = r.body.detail.find((d: { loc: string[] }) => d.loc[3] === '/steps/1/with/email');
    expect(never.msg).toMatch(/'mail', which svc\.people\.email\.find never returns/);
    expect((await w.req('GET', '/hub/tools/broken-tool')).status).toBe(404);
  });

  it('refuses a call svc cannot make, a step reading a later step, a step that cannot fill an identity, a literal the call refuses', async () => {
    const r = await publish(
      'broken-calls',
      emailTool((f) => {
        f.tool.steps = [
          { id: 'find', call: 'svc.people.email.find', with: { domain: '{{input.domain}}', email: '{{steps.verify.output.status}}' } },
          { id: 'verify', call: 'nobody.does.this', with: {} },
          { id: 'again', call: 'svc.people.email.verify', with: { email: 42 } },
        ];
      }),
    );
    expect(r.status).toBe(422);
    const byLoc = Object.fromEntries(r.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc[3], d.msg]));
    expect(byLoc['/steps/0/with/email']).toMatch(/takes no field 'email'|does not run before this point/);
    expect(byLoc['/steps/0/with']).toMatch(/needs one of these identity sets/);
    expect(byLoc['/steps/1/call']).toMatch(/neither a routed capability/);
    // a literal the router would refuse is refused here, before anyone pays for the check
    expect(byLoc['/steps/2/with/email']).toMatch(/would refuse 42 for 'email': 'email' must be string/);
  });

  it('a price that is not a USD amount is one sentence saying what a price is, whatever its type', async () => {
    for (const price of [-1, '-1', 'free', 0.0000001, true, null]) {
      const r = await publish(
        'bad-price',
        emailTool((f) => {
          f.tool.price_usd = price as never;
        }),
      );
      expect(r.status, JSON.stringify(price)).toBe(422);
      expect(r.body.detail, JSON.stringify(price)).toEqual([
        {
          loc: ['body', 'files', 'tool.json', '/price_usd'],
          type: 'value_error.price',
          msg: 'price_usd must be a USD amount ≥ 0 with at most 6 decimals, up to 9007199254.740991.',
        },
      ]);
    }
  });

  it('refuses files that are not JSON, schemas that are not JSON Schemas, and bad ids', async () => {
    const files = { ...emailTool(), 'tool.json': '{"name": ', 'output.schema.json': JSON.stringify({ type: 'object', properties: { a: { type: 'strang' } } }) };
    const r = await publish('broken-json', files);
    expect(r.status).toBe(422);
    expect(locs(r.body)).toEqual(expect.arrayContaining(['body files tool.json ', 'body files output.schema.json /properties/a/type']));
    const id = await publish('No_Such Id', emailTool());
    expect(id.status).toBe(422);
    expect(id.body.detail[0].loc).toEqual(['body', 'tool_id']);
    const missing = await w.req('POST', '/hub/tools', { tool_id: 'no-files', files: { 'tool.json': '{}' } });
    expect(locs(missing.body)).toEqual(expect.arrayContaining(['body files input.schema.json', 'body files check.json']));
  });
});

describe("makers' schemas", () => {
  it('take `format` as an annotation (draft 2020-12): accepted, not enforced, and nothing a maker wrote is logged', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const r = await publish(
        'email-format',
        emailTool((f) => {
          (f.input.properties as Record<string, object>).domain = { type: 'string', format: 'hostname' };
        }),
      );
      expect(r.body.status).toBe('live');
      const run = await w.req('POST', '/hub/tools/email-format/run', { input: { domain: 'not a host name', full_name: 'Jane Doe' } }, w.other.token);
      expect(run.body.detail?.[0]?.loc).not.toEqual(['body', 'input', 'domain']);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a new version's state (the seed's state table)", () => {
  it("goes live when the check run on the maker's balance passes; newest live serves by default", async () => {
    const before = await w.ctx.state.balance(w.teamId);
    const r = await publish('email-live', emailTool());
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ tool_id: 'email-live', version: 1, status: 'live', check: { ok: true, output: { status: 'deliverable' } } });
    expect(r.body.reason).toBeUndefined();
    // the check really ran, on the maker's balance
    expect(r.body.check.cost_micro).toBeGreaterThan(0);
    expect(before - (await w.ctx.state.balance(w.teamId))).toBe(r.body.check.cost_micro);
    const put = await w.req('PUT', '/hub/tools/email-live', {
      files: emailTool((f) => {
        f.tool.price_usd = '0.07';
      }),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ version: 2, status: 'live' });
    const seen = await w.req('GET', '/hub/tools/email-live', undefined, w.other.token);
    expect(seen.body).toMatchObject({ version: 2, live_version: 2, price_micro: 70_000, status: 'live' });
  });

  it('a failed check stores the version as failed and keeps a reason naming the step and field', async () => {
    const r = await publish(
      'email-failed',
      emailTool((f) => {
        f.check = { input: { domain: 'acme.com', full_name: 'Jane Doe' }, expect: { email: 'jane@acme.com' } };
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('failed');
    expect(r.body.reason).toMatch(
      /expects output 'email' to be "jane@acme\.com"; the tool answered "jane\.doe@acme\.com" \(steps served by find: findco\.people\.email\.find, verify: /,
    );
    const read = await w.req('GET', '/hub/tools/email-failed');
    expect(read.body).toMatchObject({ status: 'failed', reason: r.body.reason, versions: [{ version: 1, status: 'failed', reason: r.body.reason }] });
    // a step that finds nothing is a failed check too, and says which step and what it was sent
    const miss = await publish(
      'email-miss',
      emailTool((f) => {
        f.check = { input: { domain: 'nohit.com', full_name: 'Jane Doe' } };
      }),
    );
    expect(miss.body.status).toBe('failed');
    expect(miss.body.reason).toMatch(/Step 'find' \(svc\.people\.email\.find\) found nothing for \{"domain":"nohit\.com","full_name":"Jane Doe"\}/);
  });

  it('stays unchecked when the balance is too low, and POST …@N/check runs it later', async () => {
    const poor = await w.team('poor maker', 0);
    const r = await publish('email-later', emailTool(), poor.token);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ version: 1, status: 'unchecked', check: { ok: false, cost_micro: 0 } });
    expect(r.body.reason).toMatch(/balance is too low.*POST \/hub\/tools\/email-later@1\/check/);
    expect(r.body.reason).toMatch(
      /^Step '\w+' \([\w.]+\) could not run: the balance is too low for its cheapest attempt \(\d+ micro-USD\); add credit, then POST \/hub\/tools\/email-later@1\/check\.$/,
    );
    await w.ctx.state.credit(poor.teamId, 1_000_000);
    const c = await w.req('POST', '/hub/tools/email-later@1/check', undefined, poor.token);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ tool_id: 'email-later', version: 1, status: 'live', check: { ok: true } });
    // a live version's check runs again on demand, and it stays live
    const again = await w.req('POST', '/hub/tools/email-later@1/check', undefined, poor.token);
    expect([again.status, again.body.status, again.body.check.ok]).toEqual([200, 'live', true]);
  });

  it('20 concurrent publishes of one tool get 20 distinct versions', async () => {
    const first = await publish('email-many', emailTool());
    expect(first.body.version).toBe(1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => w.req('PUT', '/hub/tools/email-many', { files: emailTool() })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => a.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const read = await w.req('GET', '/hub/tools/email-many');
    expect(read.body.versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('another team cannot take an id, and an id is claimed once under concurrent first publishes', async () => {
    const taken = await publish('email-live', emailTool(), w.other.token);
    expect(taken.status).toBe(409);
    const a = await w.team('racer a', 10_000_000);
    const b = await w.team('racer b', 10_000_000);
    const race = await Promise.all([publish('email-race', emailTool(), a.token), publish('email-race', emailTool(), b.token)]);
    expect(race.map((x) => x.status).sort()).toEqual([201, 409]);
  });
});
