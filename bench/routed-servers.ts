// Child processes of the benches, one role each, so servers and the load generator do not share an
// event loop (svc itself runs as `npm start` does, bench/npm-start.ts): `sandbox`, `trivial`, and the
// bare forwarders `forwarder`, `forwarder-request` and `forwarder-http`, and svc's `plumbing`, each given
// <targetOrigin>. Each prints one JSON line.
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox } from '../sandbox/index.ts';
import { readJsonNode } from '../runtime/http/body.ts';
import { send } from '../runtime/router/http.ts';
import { OutgoingRequest } from '../runtime/router/build-request.ts';
import { readConfig } from '../runtime/config/config.ts';

const [role, arg, dist] = process.argv.slice(2);
// SIGINT exits cleanly, so a --cpu-prof run (BENCH_PROFILE=1) writes its profile
process.once('SIGINT', () => process.exit(0));
const runtime = loadSandboxCatalog(dist);
const { keys } = sandboxKeys(runtime, {});
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

if (role === 'sandbox') {
  const running = await startSandbox(createSandbox(runtime, { keys }), 0);
  say({ url: running.url, keys });
} else if (role === 'trivial') {
  // The lightest upstream there is: one fixed answer at once, so svc's own cost shows. It is a hit in
  // the shape of every verifier of the fixture catalog and of the real catalog's first one planned
  // (leadmagic), so the first child planned serves and each routed call makes exactly one upstream
  // request, as the forwarder does.
  const body = Buffer.from(
    JSON.stringify({
      address: 'jane@acme.com',
      verdict: 'ok',
      status: 'valid',
      sub_status: '',
      free_email: false,
      email: 'jane@acme.com',
      email_status: 'valid',
    }),
  );
  const server = createServer((req, res) => {
    req.resume().once('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  say({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
} else if (role === 'plumbing') {
  // The least a routed call can cost with svc's own plumbing and none of its decisions: the Node
  // server, svc's JSON body reader and client exchange (the one child request a routed call makes to
  // the trivial upstream) and an answer wrapping the child's, without credentials, options, plan,
  // money, mapping or observations. svc's CPU beyond it is what routing itself costs.
  const headers = { accept: 'application/json', 'x-check-key': 'bench' }; // the upstream checks no key
  const { maxBodyBytes, attemptTimeoutMs } = readConfig({}); // svc's own defaults
  const server = createServer((req, res) => {
    void readJsonNode(req, maxBodyBytes)
      .then((body) =>
        send(
          new OutgoingRequest('GET', arg, `/checkco/check?address=${encodeURIComponent((body as { email: string }).email)}`, headers, null),
          attemptTimeoutMs,
        ),
      )
      .then(
        (child) => {
          const text = `{"output":${JSON.stringify(child.body)},"raw":${child.text}}`;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          res.end(text);
        },
        () => res.destroy(),
      );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // a token the calls carry (and the plumbing ignores), so its requests are svc's, byte for byte
  say({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'svc_plumbing' });
} else {
  // Bare forwarders, the floor for a Node proxy: forward the request, send the answer back.
  // `forwarder` makes undici's leanest call (dispatch with a handler gathering the body);
  // `forwarder-request` uses undici's everyday request() API, as svc does;
  // `forwarder-http` is node:http on both sides (a keep-alive Agent, answers piped through).
  const target = new URL(arg);
  const answer = (res: ServerResponse, status: number, body: Buffer) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
  const agent = new Agent();
  const viaDispatch = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let status = 0;
    agent.dispatch(
      { origin: target.origin, path: req.url!, method: req.method as Dispatcher.HttpMethod, headers: req.headers as Record<string, string> },
      {
        onRequestStart() {},
        onResponseStart(_c, statusCode) {
          status = statusCode;
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          answer(res, status, Buffer.concat(chunks));
        },
        onResponseError() {
          res.destroy();
        },
      },
    );
  };
  const viaRequest = (req: IncomingMessage, res: ServerResponse) => {
    void request(`${arg}${req.url}`, { method: req.method as Dispatcher.HttpMethod, headers: req.headers as Record<string, string>, dispatcher: agent }).then(
      async (up) => answer(res, up.statusCode, Buffer.from(await up.body.arrayBuffer())),
      () => res.destroy(),
    );
  };
  const keepAlive = new HttpAgent({ keepAlive: true });
  const viaNodeHttp = (req: IncomingMessage, res: ServerResponse) => {
    const up = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent: keepAlive },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const server = createServer(role === 'forwarder-request' ? viaRequest : role === 'forwarder-http' ? viaNodeHttp : viaDispatch);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  say({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
