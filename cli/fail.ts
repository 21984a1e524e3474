// A CLI failure the user can act on: printed as one sentence, no stack, and an exit code that tells a
// script what happened (docs/cli.md lists them; `svc --help` prints them).
export const EXIT = {
  /** done: a hit, a listing, a write */
  ok: 0,
  /** something svc did not expect (a bug): the sentence says what */
  unexpected: 1,
  /** the command line is wrong (an unknown flag, a missing argument, SVC_TOKEN not set); nothing was sent */
  usage: 2,
  /** answered, and nothing found: a routed call or tool run that missed, a search with no match, a tool version that did not go live */
  miss: 3,
  /** the server refused the request (4xx: bad input, no credit, unknown id, no access) */
  refused: 4,
  /** the server failed (5xx: every provider errored, svc could not make a step) */
  server: 5,
  /** no answer: the server is not reachable at SVC_URL, or did not answer in time */
  unreachable: 6,
  /** stopped by Ctrl-C (128 + SIGINT, as shells report it): `svc batch` wrote what it was answered first */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_HELP = [
  'Exit codes:',
  '  0  done (a call or tool run that hit, a listing, a write)',
  '  2  usage error: wrong arguments or flags, SVC_TOKEN not set; nothing was sent',
  '  3  a miss: answered, nothing found (call, hub run, search, find), or a published version not live',
  '  4  refused by the server (4xx: invalid input, balance too low, unknown id, no access)',
  '  5  server error (5xx: every provider failed, a step svc could not make)',
  '  6  server not reachable at SVC_URL, or no answer in time',
  '  130  stopped by Ctrl-C (svc batch: the rows in flight written first)',
  '  1  anything else (unexpected)',
].join('\n');

export class CliFailure extends Error {
  /** `body`: the server's JSON answer, printed on stdout under --json so scripts can read it */
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.unexpected,
    readonly body?: unknown,
  ) {
    super(message);
  }
}
