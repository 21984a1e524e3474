// Clients on raw sockets, doing what HTTP/1.1 allows and a paid call must survive.
// - A routed call whose provider takes its time, then on the same connection a second call announcing
//   a 100 MB body streamed at full speed: svc stops reading that connection while the first call runs
//   (not buffering what it cannot serve yet), keeps answering everyone else, then answers the first
//   call and refuses the second for its size, unpaid.
// - A request followed at once by the client's FIN: svc cannot tell a client that half-closed from
//   one that left, and takes it as gone (docs/operations.md, "Connections"): an attempt already sent
//   ends and is paid exactly, and no further child is tried.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { residentMb } from '../helpers/ran.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
let port: number;

beforeAll(async () => {
  // the provider's 3 s answer stays within the attempt deadline
  w = await routedWorld(FIXTURE_DIST, { env: { SVC_ATTEMPT_TIMEOUT_MS: '10000' } });
  port = Number(new URL(w.url).port);
});
afterAll(() => w.close());

const MB = 2 ** 20;
const ANNOUNCED = 100 * MB;

describe('a large body pipelined behind a slow call', () => {
  it('is not read while the call runs; others are served meanwhile; then the call is answered and the body refused as too large', async () => {
    const body = JSON.stringify({ email: 'f1.latency3000ms-zerobounce@acme.com' });
    const first = `POST /proxy/people.email.verify HTTP/1.1\r\nhost: x\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const second = `POST /proxy/people.email.verify HTTP/1.1\r\nhost: x\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ncontent-length: ${ANNOUNCED}\r\n\r\n`;
    const s = connect(port, '127.0.0.1');
    s.on('error', () => {});
    let got = '';
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1');
    });
    // both answers in: the second's JSON body complete
    const answered = new Promise<void>((r) => s.on('data', () => /HTTP\/1\.1 \d{3} .*\r\n\r\n\{.*\}HTTP\/1\.1 \d{3} .*\r\n\r\n\{.*\}$/s.test(got) && r()));
    await new Promise((r) => s.once('connect', r));
    const rssBefore = residentMb(process.pid);
    const balance = await w.ctx.state.balance(w.teamId);
    s.write(first);
    s.write(second);

    // stream the announced body until svc stops taking it (no drain for a second) while the call runs
    const chunk = Buffer.alloc(64 * 1024, 'A');
    let sent = 0;
    let stalled = false;
    while (sent < ANNOUNCED && !s.destroyed) {
      sent += chunk.length;
      if (s.write(chunk)) continue;
      const drained = await Promise.race([new Promise((r) => s.once('drain', () => r(true))), new Promise((r) => setTimeout(r, 1_000, false))]);
      if (!drained) {
        stalled = true;
        break;
      }
    }
    expect(stalled).toBe(true);
    // what the kernel's buffers and Node's first reads hold, nowhere near the 100 MB announced
    expect(sent).toBeLessThan(16 * MB);
    expect(got).toBe('');

    // another client is served while the connection above is held
    const other = await fetch(`${w.url}/healthz`);
    expect(other.status).toBe(200);

    await answered;
    s.destroy();
    const statuses = [...got.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 413]);
    const answer = JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4, got.indexOf('HTTP/1.1 413'))) as { _svc: { served_by: string } };
    expect(answer._svc.served_by).toBe('zerobounce.people.email.verify');
    expect(got.slice(got.indexOf('HTTP/1.1 413'))).toMatch(/too large/i);
    // the call served is paid once; the refused one costs nothing
    expect(balance - (await w.ctx.state.balance(w.teamId))).toBe(8000);
    // svc runs in this process: it did not buffer the stream it was sent
    expect(residentMb(process.pid) - rssBefore).toBeLessThan(64);
  }, 30_000);
});

/** send `bytes` and half-close at once; everything svc answers until it closes the connection */
function sentWithFin(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1');
    });
    s.on('error', reject);
    s.on('close', () => resolve(got));
    s.end(bytes);
  });
}

const routedCall = (email: string) => {
  const body = JSON.stringify({ email });
  return `POST /proxy/people.email.verify HTTP/1.1\r\nhost: x\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
};

describe('a client that half-closes right after its request', () => {
  it("is taken as gone, as Node's server and nginx take it: no answer, and what was sent before svc saw the FIN is charged exactly", async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const balance = await w.ctx.state.balance(w.teamId);
    // the first child misses after 300 ms, and the second would be billed for a hit
    const email = 'fin.latency300ms-zerobounce.nohit-zerobounce@acme.com';
    // (sentWithFin resolves once svc closes the connection)
    expect(await sentWithFin(routedCall(email))).toBe('');
    await new Promise((r) => setTimeout(r, 1_000));
    // an attempt sent before the FIN was seen runs to its end (here the first, a free miss); no child after it
    expect(await w.billing()).toEqual({});
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
    // the same call kept open falls through and pays the second child
    const kept = await w.call('/proxy/people.email.verify', { email });
    expect(kept.body._svc.tried.map((t: { endpoint_id: string }) => t.endpoint_id)).toEqual(['zerobounce.people.email.verify', expect.any(String)]);
    expect(balance - (await w.ctx.state.balance(w.teamId))).toBe(Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0));
  });
});
