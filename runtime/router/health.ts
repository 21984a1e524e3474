// In-process memory of trouble: children that keep erroring are skipped for a cool-down (circuit
// open), then probed again; a team's own key that a provider refuses is set aside for a while.
export const CIRCUIT_ERRORS = 5;
export const CIRCUIT_COOL_MS = 30_000;
export const OWN_KEY_COOL_MS = 10 * 60_000;

export class Health {
  private errors = new Map<string, number>();
  private openUntil = new Map<string, number>();
  private keyUntil = new Map<string, number>();

  constructor(private now: () => number = Date.now) {}

  circuitOpen(endpointId: string): boolean {
    const until = this.openUntil.get(endpointId);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    // Half-open: one probe goes through; an error re-opens at once.
    this.openUntil.delete(endpointId);
    this.errors.set(endpointId, CIRCUIT_ERRORS - 1);
    return false;
  }

  record(endpointId: string, outcome: 'hit' | 'miss' | 'error'): void {
    if (outcome !== 'error') { this.errors.delete(endpointId); return; }
    const n = (this.errors.get(endpointId) ?? 0) + 1;
    this.errors.set(endpointId, n);
    if (n >= CIRCUIT_ERRORS) this.openUntil.set(endpointId, this.now() + CIRCUIT_COOL_MS);
  }

  ownKeyCooling(teamId: number, provider: string): boolean {
    return (this.keyUntil.get(`${teamId}:${provider}`) ?? 0) > this.now();
  }

  coolOwnKey(teamId: number, provider: string): void {
    this.keyUntil.set(`${teamId}:${provider}`, this.now() + OWN_KEY_COOL_MS);
  }
}
