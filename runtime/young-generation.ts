// V8's young generation grows (up to 16 MB per semi-space) whenever enough of its objects have
// survived collections, and it never gives the memory back. Loading the catalog and the search index
// is all survivors, and a quiet server's few survivors add up too, so a start and a few hundred
// searches grew it for nothing: 10-13 MB of resident memory. So svc holds it at its first size
// (growth factor 1) until paid calls crowd in: with many in flight their objects do survive, and a
// capped young generation made a routed call cost about 25% more CPU (bench/README.md); searches
// cost the same either way. Then V8's default factor, 2, applies for the rest of the process. V8
// reads the factor at each growth, so setting it at run time takes effect (it raises a factor below
// 2 given on the command line); checked on Node 20, 22 and 24, and by test/runtime/young-generation.test.ts.
import { setFlagsFromString } from 'node:v8';

/** paid calls in flight together that release the young generation: a load, not one client's calls */
export const YOUNG_GENERATION_CROWD = 8;

/** Imported first by runtime/start.ts, so the growth is held before anything else loads. */
setFlagsFromString('--semi-space-growth-factor=1');

/** The young generation grows with the load again. */
export function releaseYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}
