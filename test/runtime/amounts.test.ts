// Amounts whose micro-USD value is not a safe integer are refused on every path money enters by:
// a credit (one too large, or one that would take the balance past it), a ceiling header, and the
// CLI before it calls the server. (Prices in YAML: test/build/validation-rules.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/http/server.ts';
import { svcCli } from '../helpers/cli.ts';
import { ADMIN, jsonInit, testApp } from './app-helper.ts';

const MAX = 'up to 9007199254.740991';
let t: Awaited<ReturnType<typeof testApp>>;
let server: RunningServer;
let url = '';
beforeAll(async () => {
  t = await testApp();
  server = await startServer(t.app, { port: 0 });
  url = server.url.replace(/\/+$/, '');
});
afterAll(async () => {
  await server?.close();
});

const admin = async (path: string, body: unknown) => {
  const res = await t.call(path, jsonInit('POST', body, { 'x-svc-admin': ADMIN }));
  return { status: res.status, body: await res.json() };
};

describe('credits', () => {
  it('one amount past the safe integer is a 422 naming the limit', async () => {
    for (const usd of ['9007199254.740992', 9007199255, '99999999999']) {
      const r = await admin('/admin/teams', { name: 'Too Rich', credit_usd: usd });
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'credit_usd'], msg: expect.stringContaining(MAX) });
    }
    expect((await admin('/admin/teams', { name: 'Exactly Rich', credit_usd: '9007199254.740991' })).status).toBe(201);
  });

  it('a negative amount, or one that is neither a number nor decimal text, is one 422 sentence saying what an amount is', async () => {
    const said = `must be a USD amount of at least 0, as a number (2.5) or decimal text ("2.50").`;
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-admin': ADMIN }, body: JSON.stringify(body) });
    for (const credit_usd of [-1, 'abc', true]) {
      const res = await post('/admin/teams', { name: 'Odd Amount', credit_usd });
      expect(res.status).toBe(422);
      expect((await res.json()).detail).toEqual([{ loc: ['body', 'credit_usd'], msg: `'credit_usd' ${said}`, type: 'value_error.anyOf' }]);
    }
    const { team } = (await admin('/admin/teams', { name: 'Odd Credit', credit_usd: 1 })).body;
    const res = await post(`/admin/teams/${team}/credit`, { usd: -5 });
    expect((await res.json()).detail).toEqual([{ loc: ['body', 'usd'], msg: `'usd' ${said}`, type: 'value_error.anyOf' }]);
  });

  it('credits that would take a balance past it are refused, and the balance stays exact', async () => {
    const { team } = (await admin('/admin/teams', { name: 'Stacker', credit_usd: 1 })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await admin(`/admin/teams/${team}/credit`, { usd: '1000000000' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 422]);
    const refused = await admin(`/admin/teams/${team}/credit`, { usd: '1000000000' });
    expect(refused.body.detail[0].msg).toBe('That credit would take the balance past 9007199254.740991 USD, the most svc keeps exactly; nothing was credited.');
    const id = (await t.state.teamBySlug(team))!.id;
    expect(await t.state.balance(id)).toBe(9_000_000_001_000_000);
    expect(Number.isSafeInteger(await t.state.balance(id))).toBe(true);
  });
});

describe('ceilings', () => {
  it('an X-Svc-Route-Max-Cost past the safe integer is a 422 naming the header', async () => {
    const { token } = (await admin('/admin/teams', { name: 'Ceiling', credit_usd: 1 })).body;
    for (const ceiling of ['9007199254.740992', '100000000000000000000']) {
      const res = await t.call(
        '/proxy/people.email.verify',
        jsonInit('POST', { email: 'jane@acme.com' }, { 'x-svc-token': token, 'x-svc-route-max-cost': ceiling }),
      );
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['header', 'X-Svc-Route-Max-Cost']);
    }
  });
});

describe('the CLI', () => {
  const svc = (args: string[]) => svcCli(args, { SVC_URL: url, SVC_ADMIN_TOKEN: ADMIN });

  it('refuses an amount past the safe integer before calling, and says the limit', async () => {
    for (const args of [
      ['admin', 'credit', 'ceiling', '9007199254.740992'],
      ['admin', 'team', 'create', 'Cli Rich', '--credit', '99999999999'],
    ]) {
      const r = await svc(args);
      expect(r.code).toBe(2); // a usage error: nothing was sent
      expect(r.stderr).toContain(`is not a USD amount svc accepts: use digits with at most 6 decimals, e.g. 10 or 0.25, ${MAX}.`);
    }
    expect(await t.state.teamBySlug('cli-rich')).toBeNull();
  });
});
