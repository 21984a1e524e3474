// One request two operations describe, called by pass-through: Apollo's POST /people/match is its
// email finder and its profile enrichment, and no value sent tells them apart. Against an upstream
// answering as Apollo documents the match, the call holds for the dearer reading and is charged as the
// dearest reading its answer fulfils, as Apollo bills it: an email found costs the export and the email
// credit, a profile alone the export credit (which charging the email reading's miss would leave to
// svc), nobody matched nothing.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { ledgerCharges, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const FIND = 'apollo.people.email.find';
const PROFILE = 'apollo.people.enrich';

/** Apollo's people/match, by the first name asked: a person with a work email, one without, nobody */
function apollo(): Promise<Server> {
  const person = (email: string | null) => ({
    id: '5f1',
    first_name: 'Tim',
    last_name: 'Zheng',
    name: 'Tim Zheng',
    title: 'Founder',
    linkedin_url: 'http://www.linkedin.com/in/tim-zheng',
    email,
    email_status: email ? 'verified' : null,
    organization: { name: 'Apollo', primary_domain: 'apollo.io' },
  });
  const s = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => {
      text += d.toString();
    });
    req.on('end', () => {
      const { first_name } = JSON.parse(text) as { first_name: string };
      const body = first_name === 'Nobody' ? { person: null } : { person: person(first_name === 'Mail' ? 'tim@apollo.io' : null) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

let w: RoutedWorld;
let upstream: Server;
beforeAll(async () => {
  upstream = await apollo();
  w = await routedWorld(REAL_DIST, { env: { SVC_BASE_APOLLO: `http://127.0.0.1:${(upstream.address() as { port: number }).port}` } });
});
afterAll(async () => {
  await w?.close();
  upstream?.close();
});

const price = (id: string) => w.ctx.catalog.runtime.operations[id].price_micro;
const match = (first_name: string, headers: Record<string, string> = {}) =>
  w.call('/proxy/apollo/people/match', { first_name, last_name: 'Zheng', domain: 'apollo.io' }, headers);

describe("Apollo's people/match by pass-through", () => {
  it('the two readings are priced apart, the email dearer', () => {
    expect(price(FIND)).toBeGreaterThan(price(PROFILE));
    expect(price(PROFILE)).toBeGreaterThan(0);
  });

  it('holds for the dearer reading (a dry run names it)', async () => {
    const r = await match('Mail', { 'X-Svc-Route-Dry-Run': '1' });
    expect(r.status).toBe(200);
    expect(r.body.worst_cost_micro).toBe(price(FIND));
  });

  it('charges each answer as the dearest reading it fulfils, and the ledger names that reading', async () => {
    const cases: Array<[string, number, string | null]> = [
      ['Mail', price(FIND), FIND],
      ['Plain', price(PROFILE), PROFILE],
      ['Nobody', 0, null],
    ];
    for (const [name, cost, endpoint] of cases) {
      const before = await w.ctx.state.balance(w.teamId);
      const charged = (await ledgerCharges(w)).length;
      const r = await match(name);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('x-svc-cost-micro'), name).toBe(String(cost));
      expect(await w.ctx.state.balance(w.teamId), name).toBe(before - cost);
      const rows = (await ledgerCharges(w)).slice(0, -charged || undefined);
      expect(
        rows.map((e) => [e.endpoint_id, -e.amount_micro]),
        name,
      ).toEqual(endpoint ? [[endpoint, cost]] : []);
    }
  });
});
