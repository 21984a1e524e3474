// What the CLI says when SVC_URL names something that is not svc: one sentence, never a crash.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { svcCli } from '../helpers/cli.ts';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/catalog/search')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><p>a web page</p>');
      return;
    }
    res.writeHead(503, { 'content-type': 'text/html' });
    res.end('<p>down for maintenance</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

it('a success that is not JSON is one sentence asking whether SVC_URL is right (exit 1)', async () => {
  expect(await svcCli(['search', 'email'], { SVC_URL: url })).toEqual({
    code: 1,
    stdout: '',
    stderr: `svc: ${url} answered /catalog/search with something other than svc's JSON; is SVC_URL the svc server?\n`,
  });
});

it("a failure without a JSON body still gets its class's exit code and a sentence", async () => {
  expect(await svcCli(['show', 'x.y'], { SVC_URL: url })).toEqual({ code: 5, stdout: '', stderr: 'svc: the server answered HTTP 503\n' });
});

it('an SVC_URL that is not an http(s) address is a usage error naming it, before anything is sent (exit 2)', async () => {
  for (const bad of ['localhost:8787', 'foo', 'ftp://example.com']) {
    expect(await svcCli(['search', 'email'], { SVC_URL: bad })).toEqual({
      code: 2,
      stdout: '',
      stderr: `svc: SVC_URL '${bad}' is not an http(s) address; set it like http://localhost:8787.\n`,
    });
  }
  expect((await svcCli(['batch', 'people.email.verify', 'in.ndjson', '-o', 'out.ndjson'], { SVC_URL: 'localhost:8787', SVC_TOKEN: 'svc_x' })).code).toBe(2);
});
