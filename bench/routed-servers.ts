// Child processes of bench/routed.ts, one role each, so servers and the load generator do not share
// an event loop: `sandbox`, `svc <sandboxUrl>`, `forwarder <targetOrigin>`. Each prints one JSON line.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import type { RuntimeCatalog } from '../build/types.ts';
import { createSandbox, sandboxKeys, startSandbox } from '../runtime/sandbox/index.ts';
import { sandboxEnv } from '../runtime/sandbox-env.ts';
import { appContext, serve } from '../test/helpers/server.ts';

const [role, arg, dist] = process.argv.slice(2);
process.once('SIGINT', () => process.exit(0));
const runtime = JSON.parse(readFileSync(join(dist, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
const { keys } = sandboxKeys(runtime, {});
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

if (role === 'sandbox') {
  const running = await startSandbox(createSandbox(runtime, { keys }), 0);
  say({ url: running.url, keys });
} else if (role === 'svc') {
  const ctx = await appContext(dist, { ...sandboxEnv(runtime, arg, keys) });
  const server = await serve(ctx);
  const { token } = (await ctx.state.createTeam('bench', 1_000_000_000_000))!;
  say({ url: server.url, token });
} else {
  // The floor for a Node proxy: forward the request with undici, send the answer back. It uses the
  // same client call as svc (undici's dispatch with a handler gathering the body), so the two differ
  // only by what svc does around it.
  const agent = new Agent();
  const target = new URL(arg);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let status = 0;
    agent.dispatch({ origin: target.origin, path: req.url!, method: req.method as Dispatcher.HttpMethod, headers: req.headers as Record<string, string> }, {
      onRequestStart() {},
      onResponseStart(_c, statusCode) { status = statusCode; },
      onResponseData(_c, chunk) { chunks.push(chunk); },
      onResponseEnd() {
        const body = Buffer.concat(chunks);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      },
      onResponseError() { res.destroy(); },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  say({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
