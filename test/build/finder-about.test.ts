// finder.yaml's `about` (a job naming who or what it is about and asking nothing: the capability that
// tells who or what that is): each capability must be one here and take the field it stands under (a
// routed one in an identity set, one of vocabulary/ in its `has`).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildCatalog } from '../../build/pipeline.ts';
import { FIXTURE_SRC } from '../helpers/paths.ts';

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  dirs = [];
});

const FINDER = [
  'acts: [send]',
  'openers: [please]',
  'gives: [send]',
  'to_caller: [me]',
  'datum_opens: [the]',
  'datum_of: [of]',
  'asks_how: [how do i]',
  'means: [call]',
  'determiners: [a]',
  'platforms: [google]',
  'company_suffixes: [inc]',
  'company_cues: [at]',
];

async function errorsWith(about: string[]): Promise<string[]> {
  const src = mkdtempSync(join(tmpdir(), 'svc-finder-'));
  dirs.push(src);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  writeFileSync(join(src, 'finder.yaml'), [...FINDER, 'about:', ...about, ''].join('\n'));
  // the fixture's zerobounce.people.email.activity, a capability of vocabulary/ only
  mkdirSync(join(src, 'vocabulary'));
  writeFileSync(
    join(src, 'vocabulary', 'people.email.activity.yaml'),
    [
      'capability: people.email.activity',
      'description: How recently an address showed activity.',
      'vocabulary:',
      '  terms: [inbox activity]',
      '  phrasings: [is this mailbox dormant]',
      '  has: {email: [email, mailbox]}',
      '  gets: {last_active: [last active, activity]}',
      '',
    ].join('\n'),
  );
  return (await buildCatalog({ src, out: null })).errors;
}

it('a capability here that takes the field builds clean, routed or of vocabulary/', async () => {
  expect(await errorsWith(['  email: people.email.verify', '  full_name: people.email.find'])).toEqual([]);
  expect(await errorsWith(['  email: people.email.activity'])).toEqual([]);
});

it('a capability not here, or one that takes no such field, is an error at its line', async () => {
  const errors = await errorsWith([
    '  email: people.email.verify',
    '  full_name: people.enrich',
    '  phone: people.email.find',
    '  domain: people.email.activity',
  ]);
  expect(errors).toHaveLength(3);
  expect(errors[0]).toMatch(/finder\.yaml:15:\d+ about: people\.enrich is no capability of capabilities\/ or vocabulary\//);
  expect(errors[1]).toMatch(/finder\.yaml:16:\d+ about: people\.email\.find takes no phone \(its identity sets: /);
  expect(errors[2]).toMatch(/finder\.yaml:17:\d+ about: people\.email\.activity takes no domain \(its vocabulary's has: email\)/);
});
