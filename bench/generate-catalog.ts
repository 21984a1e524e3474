// A synthetic catalog-src of any size for benchmarks: N providers x 20 operations, built from the
// fixture's contracts so it validates, with sibling groups about as large as the real catalog's.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURE = join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src');
const BASE = [
  'company',
  'people',
  'email',
  'phone',
  'search',
  'enrich',
  'verify',
  'domain',
  'profile',
  'posts',
  'lookup',
  'reverse',
  'social',
  'funding',
  'jobs',
  'news',
  'traffic',
  'tech',
  'reviews',
  'hiring',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'qua', 'dri', 'fen', 'gor', 'hul', 'jex', 'bra', 'cli', 'dov', 'ept'];
// Real catalogs use a few hundred distinct words; 20 base words plus 400 made-up ones keep posting lists realistic.
const WORDS = [...BASE, ...SYLLABLES.flatMap((a) => SYLLABLES.map((b) => `${a}${b}`))];
const word = (i: number) => WORDS[Math.abs(i * 7919) % WORDS.length];

export function generateCatalog(dir: string, providers: number): number {
  mkdirSync(join(dir, 'capabilities'), { recursive: true });
  mkdirSync(join(dir, 'providers'), { recursive: true });
  mkdirSync(join(dir, 'examples'), { recursive: true });
  cpSync(join(FIXTURE, 'platforms.yaml'), join(dir, 'platforms.yaml'));
  const verifyCap = readFileSync(join(FIXTURE, 'capabilities', 'people.email.verify.yaml'), 'utf8');
  const example = readFileSync(join(FIXTURE, 'examples', 'zerobounce.people.email.verify.json'), 'utf8');
  const groups = Math.ceil(providers / 10);
  for (let g = 0; g < groups; g++) {
    writeFileSync(
      join(dir, 'capabilities', `gen.verify${g}.yaml`),
      verifyCap.replace('capability: people.email.verify', `capability: gen.verify${g}`).replace(/^related:.*(\n- .*)*/m, 'related: []'),
    );
  }
  let ops = 0;
  for (let p = 0; p < providers; p++) {
    const service = `gen${p}`;
    const lines = [
      `service: ${service}`,
      `display_name: Generated ${word(p)} ${p}`,
      `base_url: https://api.gen${p}.test/v1`,
      `docs_url: https://docs.gen${p}.test/`,
      `auth: {env: SVC_KEY_GEN${p}, in: header, name: X-API-KEY}`,
      `defaults: {platform: ${['people', 'companies', 'search', 'linkedin', 'youtube'][p % 5]}, verified: 2026-11-01, added: 2026-10-01}`,
      'operations:',
    ];
    for (let k = 0; k < 2; k++) {
      const id = `${service}.gen.verify${(p + k * 7) % groups}`;
      lines.push(
        `  - id: ${id}`,
        `    name: Verify ${word(p + k)} address`,
        `    summary: Checks whether an address of ${word(p)} ${word(k)} is deliverable.`,
        `    method: GET`,
        `    path: /verify${k}`,
        `    kind: data`,
        `    cost: {type: per_call, value: 1, currency: credits, unit: check, usd: ${((p % 37) + 1) / 10000}, source: documented, evidence: {url: "https://gen${p}.test/pricing", quote: one check costs 1 credit, read: 2026-11-01}, assumed: a generated credit price}`,
        `    input: {queryParams: {email: {type: string, required: true, example: jane@acme.com}}}`,
        `    docs_url: https://docs.gen${p}.test/verify`,
        `    serves: gen.verify${(p + k * 7) % groups}`,
        `    accepts: [[email]]`,
        `    request: {map: [{from: email, to: query.email}]}`,
        `    response: {output: {email: address, status: {path: status, values: {valid: deliverable, invalid: undeliverable}}, reason: sub_status}}`,
        `    miss: {means: unknown status, when: [{path: status, in: [unknown]}]}`,
        `    bills_miss: false`,
      );
      writeFileSync(join(dir, 'examples', `${id}.json`), example);
      ops++;
    }
    for (let k = 0; k < 18; k++) {
      const kind = k >= 16 ? 'utility' : 'data';
      const cap = kind === 'utility' ? `account.${word(k)}${p % 50}` : `gen.${word(p + k)}.${word(k * 3 + p)}${(p * 18 + k) % 1600}`;
      lines.push(
        `  - id: ${service}.op${k}`,
        `    name: ${word(k)} ${word(p + k)} ${word(p * k)} lookup`,
        `    summary: Returns ${word(p + 2 * k)} and ${word(k + 5)} data about a ${word(p + k + 3)} from provider ${p}.`,
        `    method: ${k % 2 ? 'POST' : 'GET'}`,
        `    path: /op${k}`,
        `    kind: ${kind}`,
        `    capability: ${cap}`,
        `    cost: {type: per_call, value: 1, currency: credits, unit: call, usd: ${((p + k) % 50) / 1000}, source: estimated, assumed: a generated price}`,
        `    input: {queryParams: {q: {type: string, required: true, example: acme}}}`,
        `    docs_url: https://docs.gen${p}.test/op${k}`,
      );
      ops++;
    }
    writeFileSync(join(dir, 'providers', `${service}.yaml`), `${lines.join('\n')}\n`);
  }
  return ops;
}
