// Which operation a pass-through call is charged as, over the real catalog: every operation's own
// test request is that operation (or one billed exactly like it, or one reading of a request several
// operations describe, such as Apollo's people/match read as a profile or as an email, the dearest
// first), and a call that fits differently priced operations equally well is refused with what tells
// them apart, never charged at a guess.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { OperationRuntime } from '../../language/types.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { billingRule, matchReadings } from '../../runtime/router/pass-through-match.ts';
import { StatusError } from '../../runtime/util/fail.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

const runtime = loadRuntime(REAL_DIST);
const ops = runtime.operations;

type TestRequest = { queryParams?: Record<string, unknown>; body?: unknown };

/** The operation's path with each `{param}` filled, as a caller would send it. */
const concrete = (op: OperationRuntime) => op.path.replace(/\{[^}]+\}/g, 'x1');
const queryOf = (q: Record<string, unknown> = {}) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));

/** the operations a call is: one, or the readings of one request, the dearest (the one held for) first */
const readings = (provider: string, method: string, path: string, query: Record<string, unknown> = {}, body?: unknown): OperationRuntime[] =>
  matchReadings(runtime, provider, method, path, queryOf(query), body);
const match = (...call: Parameters<typeof readings>): OperationRuntime => readings(...call)[0];

/** The 422 a call answers, as its detail list. */
function refusal(call: () => unknown): Array<{ loc: string[]; msg: string; type: string }> {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).status).toBe(422);
    return ((e as StatusError).data as { detail: Array<{ loc: string[]; msg: string; type: string }> }).detail;
  }
  throw new Error('the call was matched, not refused');
}

describe("every operation's own test request", () => {
  it('is that operation, one with the identical billing rule, or one reading of a request several operations describe', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of readdirSync(join(ROOT, 'catalog-src', 'providers'))) {
      for (const src of parse(readFileSync(join(ROOT, 'catalog-src', 'providers', f), 'utf8')).operations as Array<{
        id: string;
        test_request?: TestRequest;
      }>) {
        if (!src.test_request) continue;
        const op = ops[src.id];
        let got: string[];
        try {
          got = readings(op.provider, op.method, concrete(op), src.test_request.queryParams, src.test_request.body).map((o) => o.endpoint_id);
        } catch (e) {
          got = [`refused: ${(e as Error).message}`];
        }
        if (!got.includes(op.endpoint_id) && (got.length > 1 || !ops[got[0]] || billingRule(ops[got[0]]) !== billingRule(op)))
          wrong.push(`${op.endpoint_id} -> ${got.join(' | ')}`);
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});

describe('a call that fits differently priced operations equally well', () => {
  it('Lusha without reveal flags (Lusha then reveals and bills everything): 422 naming both flags and what each operation stands for', () => {
    const detail = refusal(() => match('lusha', 'GET', '/v2/person', { email: 'jane@acme.com' }));
    expect(detail.map((d) => d.loc.join('.')).sort()).toEqual(['query.revealEmails', 'query.revealPhones']);
    expect(detail[0].type).toBe('value_error.ambiguous');
    expect(detail[0].msg).toContain(`lusha.people.phone.find (${ops['lusha.people.phone.find'].price_micro} micro-USD)`);
    expect(detail[0].msg).toContain('nothing was called or charged');
    expect(match('lusha', 'GET', '/v2/person', { email: 'jane@acme.com', revealEmails: 'false', revealPhones: 'false' }).endpoint_id).toBe(
      'lusha.people.enrich',
    );
  });

  it('Crustdata without fields, or with the whole contact group: 422 naming fields; the same sections in another order are the same call', () => {
    const url = { professional_network_profile_urls: ['https://www.linkedin.com/in/dvdhsu/'] };
    for (const body of [url, { ...url, fields: ['contact'] }, { ...url, fields: ['basic_profile', 'contact.business_emails', 'contact.phone_numbers'] }]) {
      const detail = refusal(() => match('crustdata', 'POST', '/person/enrich', {}, body));
      expect(
        detail.map((d) => d.loc.join('.')),
        JSON.stringify(body),
      ).toEqual(['body.fields']);
    }
    const reordered = { ...url, fields: ['contact.phone_numbers', 'basic_profile'] };
    expect(match('crustdata', 'POST', '/person/enrich', {}, reordered).endpoint_id).toBe('crustdata.people.phone.find');
  });

  it('Ocean: no reveal is the plain enrich; both reveals at once are no one operation (422)', () => {
    const person = { person: { linkedin: 'https://www.linkedin.com/in/johndoe' } };
    expect(match('ocean', 'POST', '/v2/enrich/person', {}, person).endpoint_id).toBe('ocean.people.enrich');
    expect(match('ocean', 'POST', '/v2/enrich/person', {}, { ...person, revealEmails: { includeEmails: false } }).endpoint_id).toBe('ocean.people.enrich');
    const both = refusal(() =>
      match('ocean', 'POST', '/v2/enrich/person', {}, { ...person, revealEmails: { includeEmails: true }, revealPhones: { includePhones: true } }),
    );
    expect(both.map((d) => d.loc.join('.')).sort()).toEqual(['body.revealEmails.includeEmails', 'body.revealPhones.includePhones']);
  });

  it('Wappalyzer: a set the catalog has no price for is refused, not charged as the bare technology lookup', () => {
    expect(match('wappalyzer', 'GET', '/lookup/', { urls: 'https://a.co' }).endpoint_id).toBe('wappalyzer.web.technologies');
    expect(match('wappalyzer', 'GET', '/lookup/', { urls: 'https://a.co', sets: 'company,phone,social' }).endpoint_id).toBe('wappalyzer.companies.enrich');
    // the one value priced holds commas: the sentence quotes it, and says the bare lookup sends none
    expect(refusal(() => match('wappalyzer', 'GET', '/lookup/', { urls: 'https://a.co', sets: 'company' }))[0]).toMatchObject({
      loc: ['query', 'sets'],
      msg: "'sets' must be 'company,phone,social' or left out at /lookup/ of 'wappalyzer' (one operation per call).",
    });
  });

  it('RocketReach: each lookup_type is its operation; none sent is the pricier email reading, never the cheaper one', () => {
    const who = { linkedin_url: 'https://www.linkedin.com/in/jane-doe' };
    for (const [type, id] of [
      ['standard', 'rocketreach.people.email.find'],
      ['phone', 'rocketreach.people.phone.find'],
      ['enrich', 'rocketreach.people.enrich'],
    ]) {
      expect(match('rocketreach', 'GET', '/person/lookup', { ...who, lookup_type: type }).endpoint_id).toBe(id);
    }
    const bare = match('rocketreach', 'GET', '/person/lookup', who);
    expect(bare.price_micro).toBeGreaterThan(ops['rocketreach.people.email.find'].price_micro);
  });

  it('operations no sent value can tell apart (the same request described twice): each reading, the pricier first', () => {
    const got = readings('serpapi', 'GET', '/search.json', { engine: 'youtube_video', v: 'dQw4w9WgXcQ' });
    const twins = Object.values(ops).filter(
      (o) =>
        o.provider === 'serpapi' &&
        o.path === '/search.json' &&
        o.input.queryParams?.engine?.default === 'youtube_video' &&
        !o.input.queryParams.next_page_token?.required,
    );
    expect(twins.length).toBeGreaterThan(1);
    expect(new Set(got)).toEqual(new Set(twins));
    expect(got[0].price_micro).toBe(Math.max(...twins.map((o) => o.price_micro)));
  });

  it("Apollo's people/match: a profile and an email finder, the email dearer first; revealing personal emails is neither (422)", () => {
    const who = { first_name: 'Tim', last_name: 'Zheng', domain: 'apollo.io' };
    const both = ['apollo.people.email.find', 'apollo.people.enrich'];
    expect(readings('apollo', 'POST', '/people/match', {}, who).map((o) => o.endpoint_id)).toEqual(both);
    // a flag sent off is the flag left out
    expect(readings('apollo', 'POST', '/people/match', {}, { ...who, reveal_personal_emails: false }).map((o) => o.endpoint_id)).toEqual(both);
    const personal = refusal(() => readings('apollo', 'POST', '/people/match', {}, { ...who, reveal_personal_emails: true }));
    expect(personal.map((d) => d.loc.join('.'))).toContain('body.reveal_personal_emails');
  });
});
