// The worked example of docs/hub.md is copyable: its four files pass every publish check against
// the real catalog (a broken copy does not), go live, and run, with every provider in the sandbox.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { routedWorld } from '../helpers/routed.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { validateFiles } from '../../runtime/hub/validate-files.ts';
import { FILE_NAMES, type FileName } from '../../runtime/hub/types.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

/** the first json block after the paragraph naming each file (`tool.json`: …) */
function exampleFiles(): Record<FileName, string> {
  const doc = readFileSync(join(ROOT, 'docs', 'hub.md'), 'utf8');
  return Object.fromEntries(
    FILE_NAMES.map((name) => {
      const m = new RegExp(`^\`${name.replaceAll('.', '\\.')}\`:[\\s\\S]*?\`\`\`json\\n([\\s\\S]*?)\`\`\``, 'm').exec(doc);
      expect(m, name).not.toBeNull();
      return [name, m![1]];
    }),
  ) as Record<FileName, string>;
}

it("docs/hub.md's worked example publishes against the real catalog", () => {
  const runtime = loadRuntime(REAL_DIST);
  const files = exampleFiles();
  const checked = validateFiles(files, runtime);
  expect('issues' in checked ? checked.issues : []).toEqual([]);
  expect('spec' in checked && checked.price_micro).toBe(50_000);
  const broken = validateFiles({ ...files, 'tool.json': files['tool.json'].replace('steps.find.output.email}}"}}', 'steps.find.output.mail}}"}}') }, runtime);
  expect('issues' in broken && broken.issues.map((i) => i.loc)).toEqual([['body', 'files', 'tool.json', '/steps/1/with/email']]);
});

it("docs/hub.md's worked example goes live and runs in the sandbox, as the docs say", async () => {
  const w = await routedWorld(REAL_DIST);
  try {
    const published = await w.call('/hub/tools', { tool_id: 'verified-work-email', files: exampleFiles() });
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({ version: 1, status: 'live', check: { ok: true } });
    const run = await w.call('/hub/tools/verified-work-email/run', { input: { domain: 'acme.com', full_name: 'Jane Doe' } });
    expect(run.status).toBe(200);
    expect(run.body.output).toEqual({ email: expect.stringContaining('@acme.com'), status: expect.any(String) });
  } finally {
    await w.close();
  }
});

it('the operation ids docs/hub.md gives as examples of an operation step are in the real catalog', () => {
  const runtime = loadRuntime(REAL_DIST);
  const doc = readFileSync(join(ROOT, 'docs', 'hub.md'), 'utf8');
  const named = [...doc.matchAll(/catalog operation id \(`([a-z0-9_.-]+)`\)/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((id) => !Object.hasOwn(runtime.operations, id))).toEqual([]);
});
