// vocabulary/<capability>.yaml: the words of a capability that operations name but no capabilities/
// file routes. A copy of the fixture catalog gets one such file: broken, the build points at its line;
// sound, search finds the operation by those words and the finder reads what it takes and gives.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../build/pipeline.ts';
import { SearchEngine } from '../../language/search.ts';
import type { CapabilityDoc } from '../../language/types.ts';
import { readJob } from '../../runtime/find/read-job.ts';
import { vocabularies } from '../../runtime/find/vocabularies.ts';
import { FIXTURE_SRC } from '../helpers/paths.ts';

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  dirs = [];
});

/** the fixture's zerobounce.people.email.activity, an operation of no routed capability, in words nobody else uses */
const ACTIVITY = [
  '# words of an unrouted capability',
  'capability: people.email.activity',
  'description: How recently an address showed activity.',
  'vocabulary:',
  '  terms: [dormant mailbox, inbox activity]',
  '  phrasings: [is this mailbox dormant]',
  '  has: {email: [email, address, mailbox]}',
  '  gets: {last_active: [last active, dormant, activity]}',
  '',
].join('\n');

function withVocabulary(files: Record<string, string>): string {
  const src = mkdtempSync(join(tmpdir(), 'svc-vocab-'));
  dirs.push(src);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  mkdirSync(join(src, 'vocabulary'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(src, 'vocabulary', name), text);
  return src;
}

async function errorAt(file: string, text: string, line: number, message: RegExp): Promise<void> {
  const src = withVocabulary({ [file]: text });
  const { errors } = await buildCatalog({ src, out: null });
  const match = errors.find((e) => message.test(e));
  expect(match, `errors were:\n${errors.join('\n')}`).toBeDefined();
  expect(match!.startsWith(`${join(src, 'vocabulary', file)}:${line}:`), `${match} should point at line ${line}`).toBe(true);
}

describe('vocabulary files for unrouted capabilities', () => {
  it('a sound file builds clean', async () => {
    const { errors } = await buildCatalog({ src: withVocabulary({ 'people.email.activity.yaml': ACTIVITY }), out: null });
    expect(errors).toEqual([]);
  });

  it('the capability matches the file name', () =>
    errorAt(
      'people.email.activity.yaml',
      ACTIVITY.replace('capability: people.email.activity', 'capability: people.email.activeness'),
      2,
      /capability 'people.email.activeness' must match its file name/,
    ));

  it('an operation has the capability', () =>
    errorAt(
      'people.email.telepathy.yaml',
      ACTIVITY.replace('capability: people.email.activity', 'capability: people.email.telepathy'),
      2,
      /no operation has it/,
    ));

  it('a routed capability keeps its words in capabilities/', () =>
    errorAt(
      'people.email.verify.yaml',
      ACTIVITY.replace('capability: people.email.activity', 'capability: people.email.verify'),
      2,
      /is routed: its vocabulary belongs in capabilities\/people.email.verify.yaml/,
    ));

  it('words are lower case', () =>
    errorAt(
      'people.email.activity.yaml',
      ACTIVITY.replace('terms: [dormant mailbox,', 'terms: [Dormant Mailbox!,'),
      5,
      /vocabulary.terms.0: must match pattern/,
    ));

  it('has and gets name fields', () =>
    errorAt('people.email.activity.yaml', ACTIVITY.replace('  has: {email:', '  has: {E-mail:'), 7, /vocabulary.has: property name must be valid/));

  it('nothing but capability, description and vocabulary', () =>
    errorAt('people.email.activity.yaml', `${ACTIVITY}platform: people\n`, 2, /must NOT have additional properties 'platform'/));

  it("search finds the operation by the file's words, and the finder reads what it takes and gives", async () => {
    const src = withVocabulary({ 'people.email.activity.yaml': ACTIVITY });
    const out = join(src, 'dist');
    expect((await buildCatalog({ src, out })).errors).toEqual([]);
    const json = (name: string) => JSON.parse(readFileSync(join(out, 'search', name), 'utf8'));
    const docs = json('capabilities.json') as CapabilityDoc[];
    expect(docs.find((d) => d.capability === 'people.email.activity')).toMatchObject({ identity: [['email']], output: ['last_active'] });
    const engine = new SearchEngine(json('rows.json'), json('index.json'), docs);
    const q = 'is this mailbox dormant';
    expect(engine.search(q, 3, () => false).hits[0].row.endpoint_id).toBe('zerobounce.people.email.activity');
    const reading = readJob(engine.read(q, true), vocabularies(docs));
    expect(reading.fits[0]).toMatchObject({ capability: 'people.email.activity', returns: ['last_active'] });
  });
});
