// V8's young generation grows (up to 16 MB per semi-space) whenever enough of its objects have
// survived collections, and it never gives the memory back. Loading the catalog and the search index
// is all survivors, and a quiet server's few survivors add up too, so a start and a few hundred
// searches grew it for nothing: 10-13 MB of resident memory. So svc holds it at its first size
// (growth factor 1) until paid calls come: with many in flight their objects do survive, and a
// capped young generation made a routed call cost about 25% more CPU (bench/README.md); one client's
// calls in a row pay too (a collection every 25 calls, 16-22 µs of a call's CPU at one connection,
// against 5 µs once grown); searches cost the same either way. Then the factor is 16: the next time
// V8 grows the young generation it goes straight to its maximum, as V8's own factor of 2 would in
// four steps (one client's calls in a row had grown it to about a quarter after 25,000 calls). V8
// reads the factor at each growth, so setting it at run time takes effect (over a factor given on
// the command line); checked on Node 20, 22 and 24, and by test/runtime/young-generation.test.ts.
import { setFlagsFromString } from 'node:v8';

/** paid calls in flight together that release the young generation: a load */
export const YOUNG_GENERATION_CROWD = 8;
/** paid calls since start that release it too: a client calling one after another */
export const YOUNG_GENERATION_CALLS = 1_000;

/** Imported first by runtime/start.ts, so the growth is held before anything else loads. */
setFlagsFromString('--semi-space-growth-factor=1');

/** The young generation grows with the load again, to its maximum at once. */
export function releaseYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=16');
}
