// One error shape for every own endpoint: {"detail": "sentence"} or, for 422, a list of
// {loc, msg, type} (the HTTPValidationError shape). Handlers throw (a StatusError from below, an
// h3 HTTPError from h3 itself); the app's onError shapes.
import { HTTPError } from 'h3';
import { LEDGER_DAMAGED_DETAIL, LedgerDamaged } from '../state/ledger-store.ts';
import { STORAGE_OUTAGE_DETAIL, STORAGE_RETRY_AFTER_S, StorageUnavailable } from '../state/unavailable.ts';
import { CALL_ID_HEADER } from '../util/call-id.ts';
import { rootCause, StatusError, type PlainAnswer } from '../util/fail.ts';

const DEFAULT_DETAIL: Record<number, string> = {
  400: 'Malformed request.',
  404: 'Not found.',
  405: 'Method not allowed on this path.',
  413: 'Request body too large.',
};

// h3 refuses a path that does not percent-decode before any route runs, with this bare message
const H3_MALFORMED_PATH = 'Bad Request';
const MALFORMED_PATH_DETAIL = 'The path has a malformed percent-encoding (a % not followed by two hex digits); write a literal % as %25.';

let storageLogged = 0;

/**
 * The one error shaper: anything thrown, as the answer the caller gets. `callId`: a paid door's
 * call, named in the body (`call_id`) and the X-Svc-Call-Id header, so even a refusal or a storage
 * 503 can be matched to the ledger (which then holds nothing for it, or what a 503's sentence says).
 */
export function errorAnswer(thrown: unknown, callId?: string): PlainAnswer {
  // h3 wraps a StatusError a handler threw in an HTTPError of the same status, message, headers and data
  let error =
    thrown instanceof HTTPError ? thrown : new HTTPError(thrown instanceof StatusError ? thrown : { status: 500, message: 'unhandled', cause: thrown });
  const root = rootCause(error);
  if (root instanceof LedgerDamaged) {
    // Stored money that cannot be read without guessing: the operator is told where, the caller why.
    console.error('[svc] ledger damaged:', root.message);
    error = new HTTPError({ status: 503, message: LEDGER_DAMAGED_DETAIL });
  }
  if (root instanceof StorageUnavailable) {
    // once a second at most: an outage under load would otherwise write a line per request
    if (Date.now() - storageLogged >= 1000) {
      storageLogged = Date.now();
      console.error('[svc]', root.message);
    }
    error = new HTTPError({ status: 503, message: STORAGE_OUTAGE_DETAIL, headers: { 'retry-after': String(STORAGE_RETRY_AFTER_S) } });
  }
  const status = error.status >= 400 && error.status <= 599 ? error.status : 500;
  const data = error.data as { detail?: unknown } | undefined;
  let detail: unknown = status === 422 && Array.isArray(data?.detail) ? data.detail : error.message;
  if (status >= 500 && status !== 502 && status !== 503 && status !== 504) {
    // A bug: log the cause for us, tell the caller nothing internal.
    console.error('[svc] unhandled error:', error.cause ?? error);
    detail = 'Internal error; it has been logged.';
  }
  if (status === 400 && detail === H3_MALFORMED_PATH) detail = MALFORMED_PATH_DETAIL;
  if (typeof detail === 'string' && (detail === '' || /^HTTPError|^Cannot find any route/i.test(detail))) detail = DEFAULT_DETAIL[status] ?? 'Request failed.';
  const headers = Object.fromEntries(new Headers(error.headers));
  headers['content-type'] = 'application/json';
  if (callId === undefined) return { status, headers, text: JSON.stringify({ detail }) };
  headers[CALL_ID_HEADER] = callId;
  return { status, headers, text: JSON.stringify({ detail, call_id: callId }) };
}

/** errorAnswer as the app's onError returns it */
export function errorResponse(error: HTTPError): Response {
  const a = errorAnswer(error);
  return new Response(a.text, { status: a.status, headers: a.headers });
}
