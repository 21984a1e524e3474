// Loaded with --import into a server by bench/routed-phases.ts: splits each call's time in the server
// into three phases, read from diagnostics channels (Node's HTTP server's, and undici's for the child
// request, in svc and in the undici forwarder alike), so
// the code is timed as it ships, with no stamp of its own: from the request's headers parsed to the
// child request handed to the socket (before), from there to the child answer's end (wait: the
// upstream and the way there and back), and from there to the answer's end written (after). One call at a time: the
// bench runs one connection, where each phase of a call ends before the next call's begins.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const sums = { before: 0, wait: 0, after: 0, calls: 0 };
let start = 0;
let sent = 0;
let answered = 0;
const started = () => { start = performance.now(); };
subscribe('http.server.request.start', started);
const sending = () => { sent = performance.now(); };
const read = () => { answered = performance.now(); };
subscribe('undici:client:sendHeaders', sending);
subscribe('undici:request:trailers', read);
const finished = () => {
  if (!sent || !answered) return; // an answer with no child request (the bench's own set-up)
  const now = performance.now();
  sums.before += sent - start;
  sums.wait += answered - sent;
  sums.after += now - answered;
  sums.calls++;
  sent = answered = 0;
};
subscribe('http.server.response.finish', finished);
// the phases' sums since the last signal, as one JSON line in PHASE_DIR/<pid>.jsonl
process.on('SIGUSR2', () => {
  appendFileSync(`${process.env.PHASE_DIR}/${process.pid}.jsonl`, `${JSON.stringify(sums)}\n`);
  sums.before = sums.wait = sums.after = sums.calls = 0;
});
