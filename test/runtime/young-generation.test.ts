// npm start holds V8's young generation at its first size until requests crowd in
// (runtime/young-generation.ts): the hold and its release in a Node process of their own, as this
// Node's V8 does them, and the server's one call when the crowd first forms, over real HTTP.
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

  it('is released once, when the server first has the crowd in flight together', async () => {
    let calls = 0;
    const gates: Array<() => void> = [];
    const app = new H3().get('/slow', () => new Promise<string>((resolve) => gates.push(() => resolve('ok'))));
    const server = await startServer(app, { port: 0, crowd: { inFlight: 3, call: () => { calls++; } } });
    const waitFor = async (n: number) => { while (gates.length < n) await new Promise((r) => setTimeout(r, 5)); };
    const get = () => fetch(`${server.url}/slow`).then((r) => r.text());
    const two = [get(), get()];
    await waitFor(2);
    expect(calls).toBe(0);
    const third = get();
    await waitFor(3);
    expect(calls).toBe(1);
    for (const open of gates.splice(0)) open();
    expect(await Promise.all([...two, third])).toEqual(['ok', 'ok', 'ok']);
    // a second crowd calls nothing more
    const again = [get(), get(), get()];
    await waitFor(3);
    for (const open of gates.splice(0)) open();
    await Promise.all(again);
    expect(calls).toBe(1);
    await server.close();
  });
});
