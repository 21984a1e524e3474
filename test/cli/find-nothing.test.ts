// `svc find` on the real catalog when nothing does the job: the verdict on stderr, no picks, exit 3
// (a miss, as docs/cli.md promises for a find with no candidate). Run in process.
import { describe, expect, it } from 'vitest';
import { svcCli } from '../helpers/cli.ts';
import { servedRealCatalog } from '../relevance/served.ts';

const server = servedRealCatalog();

describe('svc find, when nothing does the job', () => {
  it('prints "nothing does this" and exits 3 for keyboard mash and a job from elsewhere', async () => {
    for (const job of [
      ['qqqq', 'zzzz'],
      ['bake', 'a', 'cake'],
    ]) {
      const r = await svcCli(['find', ...job], { SVC_URL: server.url });
      expect(r).toEqual({
        code: 3,
        stdout: '',
        stderr: expect.stringMatching(/^Nothing does this: no operation in the catalog knows any word of '.+'\. Describe the data you want/),
      });
    }
  });

  it('--json prints both lines, with no candidates and nothing kept', async () => {
    const r = await svcCli(['find', 'qqqq zzzz', '--json'], { SVC_URL: server.url });
    expect(r.code).toBe(3);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { event: 'candidates', q: 'qqqq zzzz', candidates: [] },
      { event: 'judged', kept: [], verdict: expect.stringMatching(/^Nothing does this/) },
    ]);
  });

  it('a job it does still gets its picks and exits 0', async () => {
    const r = await svcCli(['find', 'verify', 'a', 'list', 'of', 'emails'], { SVC_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PICK\s+WHY\nsvc\.people\.email\.verify\s/m);
  });
});
