// The steering words of SPEC §3, read from anywhere in a request (path, query string, body text).

export type Fault = 'fail' | 'slow' | 'reset' | 'garbage';

export interface Steer {
  /** an error answer instead of data (first found of reset, slow, fail, garbage) */
  fault: Fault | null;
  /** `latency<N>ms-<service>`: wait N ms, then answer as usual */
  latencyMs: number;
  /** `nohit-<service>` or a bare `nohit`: answer the provider's miss form */
  miss: boolean;
  /** `charge<N>-<service>`: a provider whose answer states its charge states (and bills) N units */
  chargeUnits: number | null;
}

const FAULTS: Fault[] = ['reset', 'slow', 'fail', 'garbage'];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The request as one lower-cased text, URL-decoded where it can be. */
export function steeringText(path: string, query: URLSearchParams, bodyText: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* keep the raw path */
  }
  return `${decoded} ${[...query.values()].join(' ')} ${bodyText}`.toLowerCase();
}

export function readSteer(text: string, service: string): Steer {
  const s = escape(service.toLowerCase());
  const has = (w: string): boolean => text.includes(`${w}-`) && new RegExp(`${w}-${s}(?![a-z0-9])`).test(text);
  const lat = text.includes('latency') ? new RegExp(`latency(\\d{1,6})ms-${s}(?![a-z0-9])`).exec(text) : null;
  const charged = text.includes('charge') ? new RegExp(`charge(\\d{1,6}(?:\\.\\d{1,6})?)-${s}(?![a-z0-9])`).exec(text) : null;
  return {
    fault: FAULTS.find(has) ?? null,
    latencyMs: lat ? Number(lat[1]) : 0,
    miss: text.includes('nohit') && (has('nohit') || /nohit(?!-)/.test(text)),
    chargeUnits: charged ? Number(charged[1]) : null,
  };
}
