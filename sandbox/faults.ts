// Random faults for soak tests (SVC_SANDBOX_FAULT_RATE): seeded, so a run can be replayed.
import { seededRandom } from './hash.ts';
import type { Steer } from './steer.ts';

export type Dice = (steer: Steer) => Steer;

export function faultDice(rate: number, seed: number): Dice {
  if (!(rate > 0)) return (s) => s;
  const rand = seededRandom(seed);
  return (steer) => {
    if (steer.fault || rand() >= rate) return steer;
    const roll = Math.floor(rand() * 4);
    if (roll === 3) return { ...steer, latencyMs: steer.latencyMs + 100 + Math.floor(rand() * 900) };
    return { ...steer, fault: (['fail', 'reset', 'garbage'] as const)[roll] };
  };
}
