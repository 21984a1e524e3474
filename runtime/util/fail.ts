// A refusal as plain data, for every layer below HTTP: a status, the sentence the caller reads, and
// what travels with it (headers, a 422's issues, a 402's amount). The router, the money and the
// services throw it without knowing h3; runtime/http/errors.ts turns it into the answer.
export class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** An answer as plain parts, for the app (as a Response) and for Node's response alike. */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export function fail(status: number, detail: string, headers?: Record<string, string>): never {
  throw new StatusError(status, detail, headers);
}

/**
 * 402: the balance cannot cover what the call may cost. The amount travels with the error, so a
 * caller that words the refusal itself (a hub step) keeps it without reading the sentence.
 */
export function balanceTooLow(neededMicro: number, detail: string): never {
  throw new StatusError(402, detail, undefined, { needed_micro: neededMicro });
}

/** the amount a balanceTooLow refusal carried, if `e` is one */
export function neededMicroOf(e: StatusError): number | undefined {
  return e.status === 402 ? (e.data as { needed_micro?: number } | undefined)?.needed_micro : undefined;
}

export function invalid(issues: ValidationIssue[], headers?: Record<string, string>): never {
  throw new StatusError(422, issues[0]?.msg ?? 'invalid input', headers, { detail: issues });
}

/** the error at the bottom of a `cause` chain (h3 wraps thrown errors, and keeps its own options as a cause) */
export function rootCause(error: unknown): unknown {
  let e = error;
  for (let i = 0; i < 4 && e && typeof e === 'object' && 'cause' in e && e.cause; i++) e = e.cause;
  return e;
}
