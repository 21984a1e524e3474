// One failing build per validation rule: each case breaks a fresh copy of the fixture catalog in one
// place and expects an error naming that file and line.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../build/pipeline.ts';
import { FIXTURE_SRC, ROOT } from '../helpers/paths.ts';

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  dirs = [];
});

interface Case {
  rule: string;
  file: string;
  /** text to replace (first occurrence) and its replacement; the replacement's first line is where the error must point */
  from: string;
  to: string;
  /** where the error points, when not at the replacement: a unique text on that line */
  at?: string;
  message: RegExp;
}

const ZB = 'providers/zerobounce.yaml';
const SC = 'providers/searchco.yaml';
const VERIFY = 'capabilities/people.email.verify.yaml';

const cases: Case[] = [
  {
    rule: 'YAML syntax',
    file: ZB,
    from: 'name: Credit balance',
    to: 'name: [Credit balance',
    at: 'summary: Returns how many validation credits',
    message: /YAML:/,
  },
  {
    rule: 'schema: unknown key',
    file: ZB,
    from: '    name: Credit balance',
    to: '    nmae: Credit balance',
    at: 'id: zerobounce.account.credits',
    message: /must NOT have additional properties 'nmae'/,
  },
  {
    rule: 'schema: required field',
    file: ZB,
    from: '    summary: Returns how many validation credits the account has left.\n',
    to: '',
    at: 'id: zerobounce.account.credits',
    message: /must have required property 'summary'/,
  },
  {
    rule: 'schema: enum',
    file: ZB,
    from: '    kind: utility\n    capability: account.credits',
    to: '    kind: admin\n    capability: account.credits',
    message: /kind: must be equal to one of the allowed values/,
  },
  { rule: 'price is a number >= 0', file: ZB, from: 'usd: 0.008\n', to: 'usd: -0.008\n', message: /cost.usd: must be >= 0/ },
  { rule: 'price has a unit', file: SC, from: 'per: 1, unit: search, ', to: 'per: 1, ', at: 'usd: 0.001', message: /must have required property 'unit'/ },
  {
    rule: 'a price is a safe integer of micro-USD',
    file: ZB,
    from: 'usd: 0.008\n',
    to: 'usd: 90071992547.5\n',
    message: /cost.usd 90071992547.5: not a whole number of micro-USD that svc can keep exactly/,
  },
  {
    rule: 'a per_result price bounds its rows',
    file: SC,
    from: 'cost: {type: free, value: 0, currency: credits, unit: call, usd: 0, source: estimated, assumed: "free: no words recorded that say so"}',
    to: 'cost: {type: per_result, value: 1, currency: credits, unit: row, usd: 0.001, source: estimated, assumed: a test price}\n    platform_eligible: true',
    message: /per_result pricing needs a bound on the rows one call is billed for/,
  },
  {
    rule: "an unknown price only on the team's own key",
    file: SC,
    from: 'cost: {type: free, value: 0, currency: credits, unit: call, usd: 0, source: estimated, assumed: "free: no words recorded that say so"}',
    to: 'cost: {type: per_call, value: 0, currency: USD, unit: run, usd: null, source: estimated, assumed: a test price}\n    platform_eligible: true',
    message: /cost.usd is null \(unknown\): a platform-key call would be charged 0 while the provider bills svc; set platform_eligible: false/,
  },
  {
    rule: "a reported charge converts at the price's own currency or is USD",
    file: SC,
    from: "1,000-credit pack'}\n",
    to: "1,000-credit pack', reported_charge: {path: credits, unit: tokens}}\n",
    message: /cost.reported_charge.unit 'tokens': neither usd nor the price's currency 'credits'/,
  },
  {
    rule: 'a reported charge is read from one place',
    file: SC,
    from: "1,000-credit pack'}\n",
    to: "1,000-credit pack', reported_charge: {path: credits, header: x-credits-spent, unit: credits}}\n",
    message: /cost.reported_charge: name exactly one of `path` \(in the JSON answer\) or `header`/,
  },
  {
    rule: 'a reported charge names where it is',
    file: SC,
    from: "1,000-credit pack'}\n",
    to: "1,000-credit pack', reported_charge: {unit: credits}}\n",
    message: /cost.reported_charge: name exactly one of `path`/,
  },
  {
    rule: 'a reported charge header is a lower-case field name',
    file: SC,
    from: "1,000-credit pack'}\n",
    to: "1,000-credit pack', reported_charge: {header: X-Credits-Spent, unit: credits}}\n",
    message: /cost.reported_charge.header 'X-Credits-Spent': a header name as a token in lower case/,
  },
  {
    rule: 'a reported charge needs a price to convert at',
    file: SC,
    from: 'cost: {type: free, value: 0, currency: credits, unit: call, usd: 0, source: estimated, assumed: "free: no words recorded that say so"}',
    to: 'cost: {type: free, value: 0, currency: credits, unit: call, usd: 0, source: estimated, assumed: "free: no words recorded that say so", reported_charge: {path: used, unit: credits}}',
    message: /cost.reported_charge: a free price of 0 credits \(usd 0\) gives no price per credits/,
  },
  {
    rule: 'an exchanged key is placed whole',
    file: SC,
    from: 'auth: {env: SVC_KEY_SEARCHCO, in: header, name: X-API-KEY}',
    to: 'auth: {env: SVC_KEY_SEARCHCO, in: header, name: X-API-KEY, part: 0, exchange: {grant: client_credentials, path: /oauth/token}}',
    message: /auth.exchange: the key is exchanged whole/,
  },
  {
    rule: 'a token exchange names its grant',
    file: SC,
    from: 'auth: {env: SVC_KEY_SEARCHCO, in: header, name: X-API-KEY}',
    to: 'auth: {env: SVC_KEY_SEARCHCO, in: bearer, exchange: {grant: password, path: /oauth/token}}',
    message: /auth.exchange.grant: must be equal to one of the allowed values/,
  },
  {
    rule: 'page_size only with per_result',
    file: ZB,
    from: '    docs_url: https://www.zerobounce.net/docs/email-validation-api-quickstart/v2-validate-emails',
    to: '    page_size: {max: 5}\n    docs_url: https://www.zerobounce.net/docs/email-validation-api-quickstart/v2-validate-emails',
    message: /page_size only applies to per_result pricing/,
  },
  {
    rule: 'page_size names a declared parameter',
    file: SC,
    from: '    docs_url: https://docs.searchco.test/rows',
    to: '    page_size: {param: query.sized}\n    docs_url: https://docs.searchco.test/rows',
    message: /page_size.param 'query.sized': not a declared parameter/,
  },
  {
    rule: 'two paths of one method that tie',
    file: SC,
    from: 'path: /account',
    to: 'path: /rows/{engine}.json',
    message: /GET \/rows\/\{engine\}.json and \/rows\/\{engine\} \(at .*searchco.yaml:\d+\) can match one path with neither more specific/,
  },
  {
    rule: 'service matches file name',
    file: ZB,
    from: 'service: zerobounce',
    to: 'service: zerobouncer',
    message: /service 'zerobouncer' must match its file name/,
  },
  {
    rule: 'capability matches file name',
    file: VERIFY,
    from: 'capability: people.email.verify',
    to: 'capability: people.email.check',
    message: /must match its file name/,
  },
  {
    rule: 'ids unique',
    file: SC,
    from: 'id: searchco.account.usage',
    to: 'id: searchco.google.serp.organic',
    message: /duplicate id searchco.google.serp.organic/,
  },
  { rule: 'id starts with the service', file: SC, from: 'id: searchco.account.usage', to: 'id: other.account.usage', message: /must start with 'searchco.'/ },
  {
    rule: 'serves names a capability',
    file: SC,
    from: 'serves: google.serp.organic\n    accepts: [[q]]\n    request:\n      map:\n        - {from: q, to: body.q}',
    to: 'serves: google.serp.organics\n    accepts: [[q]]\n    request:\n      map:\n        - {from: q, to: body.q}',
    message: /serves 'google.serp.organics': no such capability/,
  },
  {
    rule: 'request maps from contract fields',
    file: ZB,
    from: '{from: email, to: query.email}',
    to: '{from: emial, to: query.email}',
    message: /request.map\[0\].from 'emial': no such contract field/,
  },
  {
    rule: 'response maps to contract fields',
    file: ZB,
    from: '        email: address',
    to: '        emale: address',
    message: /response.output.emale: no such contract field/,
  },
  {
    rule: 'required output mapped',
    file: SC,
    from: '        results: {path: organic, items:',
    to: '        total_results2: {path: organic, items:',
    message: /response.output.total_results2: no such contract field/,
  },
  {
    rule: 'required output field present',
    file: ZB,
    from: '        status:\n          path: status',
    to: '        reason2:\n          path: status',
    at: 'email: address',
    message: /required contract field 'status' is not mapped/,
  },
  {
    rule: 'accepts is an identity set',
    file: ZB,
    from: 'accepts: [[email]]',
    to: 'accepts: [[email, domain]]',
    message: /accepts\[0\] \{email, domain\} is not an identity set/,
  },
  {
    rule: 'accepted fields are sent',
    file: SC,
    from: '        - {from: q, to: query.query}',
    to: '        - {from: limit, to: query.query}',
    at: 'accepts: [[q]]\n    request:\n      map:\n        - {from: limit',
    message: /field 'q' is accepted but request.map never sends it/,
  },
  { rule: 'transforms exist', file: SC, from: 'transform: int}', to: 'transform: integer}', message: /transform 'integer': unknown/ },
  { rule: 'path params declared', file: SC, from: 'path: /account', to: 'path: /account/{month}', message: /path \{month\} is not a declared path parameter/ },
  { rule: 'paths stay on the provider host', file: SC, from: 'path: /account', to: 'path: /v1/../admin', message: /path \/v1\/\.\.\/admin: no dot segments/ },
  {
    rule: 'declared path params used',
    file: SC,
    from: 'path: /rows/{engine}',
    to: 'path: /rows',
    at: '        engine: {type: string',
    message: /input.pathParams.engine does not appear in path/,
  },
  {
    rule: 'filters mapped or ignored',
    file: SC,
    from: '      ignores: [country, language]',
    to: '      ignores: [country]',
    at: '      map:\n        - {from: q, to: query.query}',
    message: /filter 'language' of google.serp.organic is neither mapped nor listed/,
  },
  {
    rule: 'ignored filters exist',
    file: SC,
    from: 'ignores: [country, language]',
    to: 'ignores: [country, language, depth]',
    message: /request.ignores\[2\] 'depth': not a filter/,
  },
  {
    rule: 'platform exists',
    file: SC,
    from: 'defaults: {platform: search,',
    to: 'defaults: {platform: serp,',
    at: 'id: searchco.google.serp.organic\n',
    message: /platform 'serp' is not in platforms.yaml/,
  },
  {
    rule: 'bills_miss agrees with the cost type',
    file: 'providers/findco.yaml',
    from: '    miss: {means: data.email is null when nothing is found}\n    bills_miss: false',
    to: '    miss: {means: data.email is null when nothing is found}\n    bills_miss: true',
    at: '    bills_miss: true',
    message: /bills_miss: true contradicts cost type per_success/,
  },
  {
    rule: 'child has docs_url',
    file: SC,
    from: '    docs_url: https://docs.searchco.test/search',
    to: "    docs_url: ''",
    message: /a routed child needs docs_url/,
  },
  {
    rule: 'a price in the source enum',
    file: SC,
    from: 'usd: 0.001, source: documented,',
    to: 'usd: 0.001, source: docs,',
    message: /cost.source: must be equal to one of the allowed values \(documented, third_party, estimated\)/,
  },
  {
    rule: 'a documented price quotes its words',
    file: SC,
    from: "source: documented, evidence: {url: https://searchco.test/pricing, quote: 'Each search costs 1 credit, results or not.', read: 2026-11-01}, ",
    to: 'source: documented, ',
    message: /cost.source documented needs cost.evidence \{url, quote, read\}/,
  },
  {
    rule: 'evidence says when it was read',
    file: SC,
    from: "quote: 'Each search costs 1 credit, results or not.', read: 2026-11-01}",
    to: "quote: 'Each search costs 1 credit, results or not.'}",
    message: /cost.evidence: must have required property 'read'/,
  },
  {
    rule: 'the quote names the figure',
    file: SC,
    from: "quote: 'Each search costs 1 credit, results or not.'",
    to: "quote: 'Each search costs credits, results or not.'",
    message: /cost.evidence.quote does not name the price's figure 1/,
  },
  {
    rule: "documented words are the provider's own",
    file: SC,
    from: "results or not.', read: 2026-11-01}",
    to: "results or not.', read: 2026-11-01, by: a blog}",
    message: /cost.evidence.by 'a blog': documented means the provider's own words/,
  },
  {
    rule: 'a third-party price says who states it',
    file: SC,
    from: ', by: a price list kept by lists.test}',
    to: '}',
    message: /cost.source third_party needs cost.evidence.by/,
  },
  {
    rule: 'an estimated price says what it assumed',
    file: ZB,
    from: 'source: estimated, assumed: "free: no words recorded that say so (priced from https://www.zerobounce.net/docs/email-validation-api-quickstart/v2-get-credit-balance)"}',
    to: 'source: estimated}',
    message: /cost.source estimated needs cost.assumed/,
  },
  {
    rule: 'a credit price says where its dollar rate comes from',
    file: SC,
    from: ", assumed: '$0.001 a credit on the 1,000-credit pack'}",
    to: '}',
    message: /cost.usd: a price in credits needs cost.usd_evidence .* or cost.assumed/,
  },
  {
    rule: 'the base URL fact names the host',
    file: SC,
    from: "quote: 'Send every request to https://api.searchco.test/v1.'",
    to: "quote: 'Send every request to https://api.searchco.example/v1.'",
    message: /facts.base_url.quote does not name api.searchco.test, the host base_url calls/,
  },
  {
    rule: 'the auth fact names what auth sends',
    file: SC,
    from: 'auth: {env: SVC_KEY_SEARCHCO, in: header, name: X-API-KEY}',
    to: 'auth: {env: SVC_KEY_SEARCHCO, in: header, name: X-API-TOKEN}',
    at: 'quote: "headers: {\'X-API-KEY\': key}"',
    message: /facts.auth.quote does not name 'X-API-TOKEN', which auth sends/,
  },
  {
    rule: 'a third-party fact says who states it',
    file: SC,
    from: ', by: an open-source searchco client}',
    to: '}',
    message: /facts.auth.source third_party needs facts.auth.by/,
  },
  {
    rule: 'two children, same provider method and path',
    file: SC,
    from: 'method: GET\n    path: /rows/{engine}',
    to: 'method: POST\n    path: /search',
    at: 'path: /search\n    kind: data\n    cost: {type: per_result',
    message: /a second child of google.serp.organic with the same provider, method and path/,
  },
  {
    rule: 'one request, one billing rule',
    file: 'providers/findco.yaml',
    from: 'billed once when found.\n    method: POST\n    path: /v1/jobs',
    to: 'billed once when found.\n    method: GET\n    path: /v1/find',
    at: 'path: /v1/find\n    kind: data\n    cost: {type: per_success, value: 2',
    message:
      /findco.people.email.find.bulk can send the same request as findco.people.email.find \(.*findco.yaml:11\), GET \/v1\/find; one answer has one billing rule, yet they differ in cost.usd/,
  },
  {
    rule: 'rows_per_unit only on per_result',
    file: SC,
    from: 'per: 1, unit: search, ',
    to: 'per: 1, rows_per_unit: 10, unit: search, ',
    message: /cost.rows_per_unit only applies to per_result pricing/,
  },
  {
    rule: 'a billed per_result miss says its minimum',
    file: SC,
    from: 'body: {error: no_results}}\n    bills_miss: false',
    to: 'body: {error: no_results}}\n    bills_miss: true',
    at: '    bills_miss: true\n  - id: searchco.account.usage',
    message: /bills_miss: true on per_result pricing bills a miss nothing .*cost.min_units/,
  },
  {
    rule: 'bills_contract_miss only on a routed child',
    file: ZB,
    from: '    capability: account.credits',
    to: '    capability: account.credits\n    bills_contract_miss: true',
    at: '    bills_contract_miss: true',
    message: /bills_contract_miss only makes sense with serves/,
  },
  {
    rule: 'bills_contract_miss agrees with the cost type',
    file: 'providers/findco.yaml',
    from: '    miss: {means: data.email is null when nothing is found}\n    bills_miss: false',
    to: '    miss: {means: data.email is null when nothing is found}\n    bills_miss: false\n    bills_contract_miss: true',
    at: '    bills_contract_miss: true',
    message: /bills_contract_miss: true contradicts cost type per_success \(an answered call is billed only on success, or never\)/,
  },
  {
    rule: 'a billed per_result contract miss says its minimum',
    file: SC,
    from: 'body: {error: no_results}}\n    bills_miss: false',
    to: 'body: {error: no_results}}\n    bills_miss: false\n    bills_contract_miss: true',
    at: '    bills_contract_miss: true',
    message: /bills_contract_miss: true on per_result pricing bills a contract miss nothing .*cost.min_units/,
  },
  {
    rule: "bills_contract_miss needs the provider's own miss",
    file: SC,
    from: '    miss: {means: organic list is empty}\n    bills_miss: false',
    to: '    miss: {means: organic list is empty}\n    bills_miss: false\n    bills_contract_miss: true',
    at: '    bills_contract_miss: true',
    message:
      /bills_contract_miss: true needs the provider's own miss \(miss.status or miss.when\); without one every miss is a contract miss, so say bills_miss/,
  },
  {
    rule: 'page_size.rows only where no response.rows can say it',
    file: SC,
    from: '    docs_url: https://docs.searchco.test/rows\n    serves: google.serp.organic',
    to: '    docs_url: https://docs.searchco.test/rows\n    page_size: {rows: data.rows}\n    serves: google.serp.organic',
    at: '    page_size: {rows: data.rows}',
    message: /page_size.rows is for operations that serve no capability; a routed child says it in response.rows/,
  },
  {
    rule: 'bills_contract_miss adds to a free miss only',
    file: 'providers/checkco.yaml',
    from: '    bills_miss: true',
    to: '    bills_miss: true\n    bills_contract_miss: true',
    at: '    bills_contract_miss: true',
    message: /bills_contract_miss: true adds nothing to bills_miss: true/,
  },
  {
    rule: 'list item transforms exist',
    file: SC,
    from: 'items: {position: rank, title: title,',
    to: 'items: {position: rank, title: {path: [title, text], transform: joinn},',
    message: /response.output.results.items.title.transform 'joinn': unknown/,
  },
  {
    rule: 'derive rules exist',
    file: 'capabilities/google.serp.organic.yaml',
    from: 'miss: output.results == []',
    to: 'miss: output.results == []\nderive:\n  q: {rule: reverse, from: [q]}',
    at: '  q: {rule: reverse',
    message: /derive.q.rule 'reverse': unknown/,
  },
  {
    rule: "misses: the seed's figure as the seed words it",
    file: 'capabilities/google.serp.organic.yaml',
    from: 'miss: output.results == []',
    to: 'miss: output.results == []\nmisses: {seed: three of three}',
    at: 'misses: {seed',
    message: /misses.seed: must match pattern/,
  },
  {
    rule: 'misses: billed_at_most is a count',
    file: 'capabilities/google.serp.organic.yaml',
    from: 'miss: output.results == []',
    to: 'miss: output.results == []\nmisses: {billed_at_most: 0.5}',
    at: 'misses: {billed',
    message: /misses.billed_at_most: must be integer/,
  },
  {
    rule: 'misses: no unknown keys',
    file: 'capabilities/google.serp.organic.yaml',
    from: 'miss: output.results == []',
    to: 'miss: output.results == []\nmisses: {last: true}',
    at: 'misses: {last',
    message: /misses: must NOT have additional properties 'last'/,
  },
  {
    rule: 'misses: only the serving child paid needs a rule that pays at most one',
    file: 'capabilities/google.serp.organic.yaml',
    from: 'miss: output.results == []',
    to: 'miss: output.results == []\nmisses:\n  seed: only the serving child is paid\n  billed_at_most: 2',
    at: '  seed: only the serving',
    message: /misses.seed says 'only the serving child is paid': set misses.final or misses.billed_at_most: 1/,
  },
  {
    rule: 'vocabulary: has names an identity field',
    file: VERIFY,
    from: '  has:\n    email:',
    to: '  has:\n    mailbox:',
    at: '    mailbox:',
    message: /vocabulary.has.mailbox: not in any identity set/,
  },
  {
    rule: 'vocabulary: gets names an output field',
    file: 'capabilities/google.serp.organic.yaml',
    from: '    results: [results,',
    to: '    pages: [results,',
    message: /vocabulary.gets.pages: not an output field/,
  },
  {
    rule: 'vocabulary: free_text names one of its has fields',
    file: 'capabilities/google.serp.organic.yaml',
    from: '  gets:',
    to: '  free_text: keywords\n  gets:',
    at: '  free_text: keywords',
    message: /vocabulary.free_text 'keywords': not one of its has fields/,
  },
  {
    rule: 'vocabulary: words are lower case',
    file: 'capabilities/google.serp.organic.yaml',
    from: 'terms: [google search,',
    to: 'terms: [Google Search!,',
    message: /vocabulary.terms.0: must match pattern/,
  },
  {
    rule: 'vocabulary: required',
    file: VERIFY,
    from: 'vocabulary:',
    to: 'vocabulary_:',
    at: 'capability: people.email.verify',
    message: /must have required property 'vocabulary'/,
  },
  {
    rule: 'miss names an output field',
    file: VERIFY,
    from: 'miss: output.status == null',
    to: 'miss: output.state == null',
    message: /miss names output.state, which is not an output field/,
  },
  { rule: 'field formats exist', file: VERIFY, from: 'formats: {email: email}', to: 'formats: {email: e-mail}', message: /formats.email 'e-mail': unknown/ },
  {
    rule: 'field formats name a field',
    file: VERIFY,
    from: 'formats: {email: email}',
    to: 'formats: {mail: email}',
    message: /formats.mail: not a field of this capability/,
  },
  {
    rule: "a formatted field's sample has its form",
    file: 'capabilities/people.email.find.yaml',
    from: 'formats: {domain: domain,',
    to: 'formats: {domain: email,',
    message: /formats.domain: the sample value of domain is not an email address/,
  },
  {
    rule: 'related capabilities exist',
    file: VERIFY,
    from: 'related: []',
    to: 'related:\n- {capability: people.telepathy, does: reads minds}',
    at: '- {capability: people.telepathy',
    message: /related\[0\] 'people.telepathy': no routed capability or operation has it/,
  },
];

function breakFixture(c: Case): { src: string; file: string; line: number } {
  const src = mkdtempSync(join(tmpdir(), 'svc-rule-'));
  dirs.push(src);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  const path = join(src, c.file);
  const before = readFileSync(path, 'utf8');
  const idx = before.indexOf(c.from);
  if (idx < 0) throw new Error(`case '${c.rule}': '${c.from}' not in ${c.file}`);
  const after = before.slice(0, idx) + c.to + before.slice(idx + c.from.length);
  writeFileSync(path, after);
  const anchor = c.at ? after.indexOf(c.at) : idx;
  if (anchor < 0) throw new Error(`case '${c.rule}': anchor not found`);
  return { src, file: path, line: after.slice(0, anchor).split('\n').length };
}

describe('the build refuses a broken catalog with file and line', () => {
  it('the fixture itself builds clean', async () => {
    const r = await buildCatalog({ src: FIXTURE_SRC, out: null });
    expect(r.errors).toEqual([]);
  });

  for (const c of cases) {
    it(c.rule, async () => {
      const { src, file, line } = breakFixture(c);
      const { errors } = await buildCatalog({ src, out: null });
      const match = errors.find((e) => c.message.test(e));
      expect(match, `errors were:\n${errors.join('\n')}`).toBeDefined();
      expect(match!.startsWith(`${file}:${line}:`), `${match} should point at ${file}:${line}`).toBe(true);
    });
  }

  it('an example that is not JSON, and one that names no operation', async () => {
    const { src } = breakFixture({ rule: 'examples', file: ZB, from: 'service:', to: 'service:', message: /./ });
    writeFileSync(join(src, 'examples', 'searchco.google.serp.organic.json'), '{\n  "organic": [\n    oops\n  ]\n}\n');
    writeFileSync(join(src, 'examples', 'nobody.people.enrich.json'), '{}');
    const { errors } = await buildCatalog({ src, out: null });
    expect(errors.some((e) => e.startsWith(`${join(src, 'examples', 'searchco.google.serp.organic.json')}:3:`) && /not valid JSON/.test(e))).toBe(true);
    expect(errors.some((e) => /example names no operation: nobody.people.enrich/.test(e))).toBe(true);
  });

  it('a routed child without a captured example', async () => {
    const { src } = breakFixture({ rule: 'no example', file: ZB, from: 'service:', to: 'service:', message: /./ });
    rmSync(join(src, 'examples', 'searchco.google.serp.organic.rows.json'));
    const { errors } = await buildCatalog({ src, out: null });
    expect(errors.some((e) => /needs a captured example: examples\/searchco.google.serp.organic.rows.json/.test(e))).toBe(true);
  });

  it('one request, one billing rule: bills_contract_miss too', async () => {
    const { src } = breakFixture({ rule: 'contract miss billing', file: ZB, from: 'service:', to: 'service:', message: /./ });
    cpSync(join(ROOT, 'test', 'fixtures', 'contract-miss'), src, { recursive: true });
    const path = join(src, 'providers', 'mailco.yaml');
    const verify = [
      '  - id: mailco.people.email.verify',
      '    name: Check an address',
      '    summary: The same search read as a check, billed the same.',
      '    method: GET',
      '    path: /v2/search',
      '    kind: data',
      '    cost: {type: per_call, value: 1, currency: searches, unit: search, usd: 0.005, source: documented, evidence: {url: https://mailco.test/pricing, quote: "One search, one credit: $0.005.", read: 2026-11-01}, usd_evidence: {url: https://mailco.test/pricing, quote: "One search, one credit: $0.005.", read: 2026-11-01}}',
      '    input:',
      '      queryParams:',
      '        domain: {type: string, required: true, example: stripe.com}',
      '    docs_url: https://docs.mailco.test/search',
      '    serves: people.email.verify',
      '    accepts: [[email]]',
      '    request:',
      '      map:',
      '        - {from: email, to: query.domain}',
      '    response:',
      '      output:',
      '        email: person.email',
      '        status: person.status',
      '    miss:',
      '      means: result is not_found',
      '      when: [{path: result, in: [not_found]}]',
      '    bills_miss: false',
      '',
    ].join('\n');
    writeFileSync(path, `${readFileSync(path, 'utf8')}${verify}`);
    writeFileSync(
      join(src, 'examples', 'mailco.people.email.verify.json'),
      '{"result": "found", "person": {"email": "jane@acme.com", "status": "deliverable"}}',
    );
    const { errors } = await buildCatalog({ src, out: null });
    const line = readFileSync(path, 'utf8').split('\n').indexOf('  - id: mailco.people.email.verify') + 5;
    const match = errors.find((e) =>
      /mailco.people.email.verify can send the same request as mailco.people.email.find .*; one answer has one billing rule, yet they differ in bills_contract_miss$/.test(
        e,
      ),
    );
    expect(match, `errors were:\n${errors.join('\n')}`).toBeDefined();
    expect(match!.startsWith(`${path}:${line}:`), `${match} should point at ${path}:${line}`).toBe(true);
  });

  it('prints every error at once, not just the first', async () => {
    const { src } = breakFixture(cases.find((c) => c.rule === 'request maps from contract fields')!);
    const path = join(src, SC);
    writeFileSync(path, readFileSync(path, 'utf8').replace('transform: int}', 'transform: integer}'));
    const { errors } = await buildCatalog({ src, out: null });
    expect(errors.filter((e) => /emial|integer/.test(e))).toHaveLength(2);
  });
});
