// Which version serves: the newest live one by default; an older live one at `@N` until 30 days
// after the first newer version went live.
import type { VersionRecord } from './types.ts';

export const PIN_WINDOW_MS = 30 * 86_400_000;

export function newestLive(versions: VersionRecord[]): VersionRecord | null {
  return versions.filter((v) => v.status === 'live').at(-1) ?? null;
}

/** when an older live version stops serving; undefined while no newer version is live */
export function pinnableUntil(v: VersionRecord, versions: VersionRecord[]): string | undefined {
  if (v.status !== 'live') return undefined;
  const newer = versions.filter((o) => o.version > v.version && o.status === 'live' && o.live_at).map((o) => Date.parse(o.live_at!));
  return newer.length ? new Date(Math.min(...newer) + PIN_WINDOW_MS).toISOString() : undefined;
}

export function pinExpired(v: VersionRecord, versions: VersionRecord[], now: number): boolean {
  const until = pinnableUntil(v, versions);
  return until !== undefined && now >= Date.parse(until);
}
