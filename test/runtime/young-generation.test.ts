// npm start holds V8's young generation at its first size until paid requests come (runtime/
// young-generation.ts): the hold and its release in a Node process of their own, as this Node's V8
// does them, and the server's one call when a crowd first forms or enough have come, over real HTTP.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { H3 } from 'h3';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../runtime/server.ts';

const MODULE = join(import.meta.dirname, '..', '..', 'runtime', 'young-generation.ts');

describe('the young generation', () => {
  it('keeps its first size while objects survive, and grows once released', async () => {
    // every object kept: as survivor-heavy as loading a catalog
    const script = `
      import v8 from 'node:v8';
      const { releaseYoungGeneration } = await import(${JSON.stringify(MODULE)});
      const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const keep = [];
      const survive = () => { for (let i = 0; i < 500000; i++) keep.push({ i, s: 'x' + i }); };
      const first = size();
      survive();
      const held = size();
      releaseYoungGeneration();
      survive();
      process.stdout.write(JSON.stringify({ first, held, released: size() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    const { first, held, released } = JSON.parse(stdout) as Record<string, number>;
    expect(held).toBe(first);
    expect(released).toBeGreaterThan(held);
  });

  it('is released once, when the server first has the crowd of counted requests in flight together', async () => {
    let calls = 0;
    const gates: Array<() => void> = [];
    const slow = () => new Promise<string>((resolve) => gates.push(() => resolve('ok')));
    const app = new H3().get('/paid/slow', slow).get('/free/slow', slow);
    const counts = (req: { url?: string }) => req.url?.startsWith('/paid/') === true;
    const server = await startServer(app, { port: 0, crowd: { inFlight: 3, total: 100, counts, call: () => { calls++; } } });
    const waitFor = async (n: number) => { while (gates.length < n) await new Promise((r) => setTimeout(r, 5)); };
    const get = (path: string) => fetch(`${server.url}${path}`).then((r) => r.text());
    const open = async (wanted: Array<Promise<string>>) => { for (const o of gates.splice(0)) o(); expect(await Promise.all(wanted)).toEqual(wanted.map(() => 'ok')); };
    // uncounted requests, however many, release nothing
    const free = [0, 1, 2, 3].map(() => get('/free/slow'));
    await waitFor(4);
    expect(calls).toBe(0);
    await open(free);
    // two counted ones come and go, then three together
    const two = [get('/paid/slow'), get('/paid/slow')];
    await waitFor(2);
    await open(two);
    const three = [get('/paid/slow'), get('/paid/slow')];
    await waitFor(2);
    expect(calls).toBe(0);
    three.push(get('/paid/slow'));
    await waitFor(3);
    expect(calls).toBe(1);
    await open(three);
    // a second crowd calls nothing more
    const again = [get('/paid/slow'), get('/paid/slow'), get('/paid/slow')];
    await waitFor(3);
    await open(again);
    expect(calls).toBe(1);
    await server.close();
  });

  it('is released once, too, when the total of counted requests has come one after another', async () => {
    let calls = 0;
    const app = new H3().get('/paid/quick', () => 'ok').get('/free/quick', () => 'ok');
    const counts = (req: { url?: string }) => req.url?.startsWith('/paid/') === true;
    const server = await startServer(app, { port: 0, crowd: { inFlight: 3, total: 5, counts, call: () => { calls++; } } });
    const get = (path: string) => fetch(`${server.url}${path}`).then((r) => r.text());
    for (let i = 0; i < 10; i++) expect(await get('/free/quick')).toBe('ok');
    for (let i = 0; i < 4; i++) expect(await get('/paid/quick')).toBe('ok');
    expect(calls).toBe(0);
    expect(await get('/paid/quick')).toBe('ok');
    expect(calls).toBe(1);
    for (let i = 0; i < 10; i++) await get('/paid/quick');
    expect(calls).toBe(1);
    await server.close();
  });
});
