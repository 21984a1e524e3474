// Memory of trouble: children that keep erroring are skipped for a cool-down (circuit open), then
// probed again; a team's own key that a provider refuses is set aside for a while. Planning asks
// synchronously, so the answers come from this process's maps; an opened circuit or a cooled key is
// also marked in the state's atomics, and the marks other instances set are read back every second,
// so on a shared backend one instance's discovery spares the others.
import type { Atomics } from '../state/atomics.ts';

export const CIRCUIT_ERRORS = 5;
export const CIRCUIT_COOL_MS = 30_000;
export const OWN_KEY_COOL_MS = 10 * 60_000;
const SYNC_MS = 1000;

export class Health {
  private errors = new Map<string, number>();
  private openUntil = new Map<string, number>();
  private keyUntil = new Map<string, number>();
  /** when a team last stored or removed its key for a provider: a refusal before that spoke of another key */
  private keyReplaced = new Map<string, number>();

  constructor(
    private now: () => number = Date.now,
    private shared?: Pick<Atomics, 'mark' | 'marks'>,
  ) {
    if (shared) setInterval(() => void this.sync(), SYNC_MS).unref();
  }

  circuitOpen(endpointId: string): boolean {
    const until = this.openUntil.get(endpointId);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    // Half-open: one probe goes through; an error re-opens at once.
    this.openUntil.delete(endpointId);
    this.errors.set(endpointId, CIRCUIT_ERRORS - 1);
    return false;
  }

  /** whether the circuit is open now, leaving it as it is (circuitOpen lets a probe through once it cools): for what svc shows */
  isOpen(endpointId: string): boolean {
    return (this.openUntil.get(endpointId) ?? 0) > this.now();
  }

  record(endpointId: string, outcome: 'hit' | 'miss' | 'error'): void {
    if (outcome !== 'error') {
      this.errors.delete(endpointId);
      return;
    }
    const n = (this.errors.get(endpointId) ?? 0) + 1;
    this.errors.set(endpointId, n);
    if (n >= CIRCUIT_ERRORS) {
      this.openUntil.set(endpointId, this.now() + CIRCUIT_COOL_MS);
      this.share(`circuit ${endpointId}`, CIRCUIT_COOL_MS);
    }
  }

  ownKeyCooling(teamId: number, provider: string): boolean {
    return this.ownKeySetAsideUntil(teamId, provider) !== null;
  }

  /** when a team's own key for a provider, set aside after the provider refused it, is tried again; null when it is not set aside */
  private ownKeySetAsideUntil(teamId: number, provider: string): number | null {
    const until = this.keyUntil.get(`${teamId}:${provider}`) ?? 0;
    return until > this.now() ? until : null;
  }

  /** of a team's stored keys, those set aside now, with when each is tried again: for what svc shows */
  setAside(teamId: number, providers: Iterable<string>): Array<{ provider: string; until: string }> {
    return [...providers].flatMap((provider) => {
      const until = this.ownKeySetAsideUntil(teamId, provider);
      return until === null ? [] : [{ provider, until: new Date(until).toISOString() }];
    });
  }

  /** The team stored or removed its key: a set-aside from before spoke of the key it replaced. */
  ownKeyReplaced(teamId: number, provider: string): void {
    const id = `${teamId}:${provider}`;
    this.keyUntil.delete(id);
    this.keyReplaced.set(id, this.now());
    this.share(`keyset ${id}`, OWN_KEY_COOL_MS);
  }

  coolOwnKey(teamId: number, provider: string): void {
    this.keyUntil.set(`${teamId}:${provider}`, this.now() + OWN_KEY_COOL_MS);
    this.share(`key ${teamId}:${provider}`, OWN_KEY_COOL_MS);
  }

  /** read the marks every instance set into this process's maps (a later end wins) */
  async sync(): Promise<void> {
    if (!this.shared) return;
    let marks: Map<string, number>;
    try {
      marks = await this.shared.marks();
    } catch {
      return; // storage away: keep what this process knows and try again next second
    }
    const t = this.now();
    for (const [name, left] of marks) {
      const space = name.indexOf(' ');
      const id = name.slice(space + 1);
      if (name.startsWith('keyset ')) this.replaced(id, t + left - OWN_KEY_COOL_MS);
      // a key's set-aside counts only if its refusal came after the key's last replacement
      else if (name.startsWith('key ') && t + left - OWN_KEY_COOL_MS <= (this.keyReplaced.get(id) ?? -Infinity)) continue;
      const map = name.startsWith('circuit ') ? this.openUntil : name.startsWith('key ') ? this.keyUntil : null;
      if (map && (map.get(id) ?? 0) < t + left) map.set(id, t + left);
    }
  }

  /** Another instance's replacement (marks last OWN_KEY_COOL_MS, so their start is when it came). */
  private replaced(id: string, at: number): void {
    if (at <= (this.keyReplaced.get(id) ?? -Infinity)) return;
    this.keyReplaced.set(id, at);
    const until = this.keyUntil.get(id);
    if (until !== undefined && until - OWN_KEY_COOL_MS < at) this.keyUntil.delete(id);
  }

  private share(name: string, ttlMs: number): void {
    this.shared?.mark(name, ttlMs).catch(() => {}); // a mark that cannot be shared still holds here
  }
}
