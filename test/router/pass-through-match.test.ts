// Which operation a pass-through call is charged as, over the real catalog: every operation's own
// test request is that operation (or one billed exactly like it, or the pricier of two operations no
// sent value tells apart, such as Apollo's people/match read as a profile or as an email), and a call that fits differently
// priced operations equally well is refused with what tells them apart, never charged at a guess.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { OperationRuntime } from '../../language/types.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { billingRule, matchOperation } from '../../runtime/router/pass-through-match.ts';
import { StatusError } from '../../runtime/util/fail.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

const runtime = loadRuntime(REAL_DIST);
const ops = runtime.operations;

type TestRequest = { queryParams?: Record<string, unknown>; body?: unknown };

/** The operation's path with each `{param}` filled, as a caller would send it. */
const concrete = (op: OperationRuntime) => op.path.replace(/\{[^}]+\}/g, 'x1');
const queryOf = (q: Record<string, unknown> = {}) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));

function match(provider: string, method: string, path: string, query: Record<string, unknown> = {}, body?: unknown): OperationRuntime {
  return matchOperation(runtime, provider, method, path, queryOf(query), body);
}

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

/** the same request described by two operations (provider, method, path), `got` no cheaper: the reading the matcher bills when no sent value tells them apart */
const pricierTwin = (got: OperationRuntime, op: OperationRuntime) =>
  got.provider === op.provider && got.method === op.method && got.path === op.path && got.price_micro >= op.price_micro;

describe("every operation's own test request", () => {
  it('is charged as that operation, as one with the identical billing rule, or as the pricier reading of the same request', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const f of readdirSync(join(ROOT, 'catalog-src', 'providers'))) {
      for (const src of parse(readFileSync(join(ROOT, 'catalog-src', 'providers', f), 'utf8')).operations as Array<{
        id: string;
        test_request?: TestRequest;
      }>) {
        if (!src.test_request) continue;
        const op = ops[src.id];
        let got: string;
        try {
          got = match(op.provider, op.method, concrete(op), src.test_request.queryParams, src.test_request.body).endpoint_id;
        } catch (e) {
          got = `refused: ${(e as Error).message}`;
        }
        if (got !== op.endpoint_id && (!ops[got] || (billingRule(ops[got]) !== billingRule(op) && !pricierTwin(ops[got], op))))
          wrong.push(`${op.endpoint_id} -> ${got}`);
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

  it('operations no sent value can tell apart (the same request described twice): the pricier reading', () => {
    const got = match('serpapi', 'GET', '/search.json', { engine: 'youtube_video', v: 'dQw4w9WgXcQ' });
    const twins = Object.values(ops).filter(
      (o) => o.provider === 'serpapi' && o.path === '/search.json' && o.input.queryParams?.engine?.default === 'youtube_video',
    );
    expect(twins.length).toBeGreaterThan(1);
    expect(got.price_micro).toBe(Math.max(...twins.map((o) => o.price_micro)));
  });
});
