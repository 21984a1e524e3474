// Places chart dots so that none covers another: each keeps the spot its figures give it when that
// spot is free, else takes the nearest free one, searched ring by ring around it (sideways first, so
// the price a dot stands at moves least). Dots are placed in the order given, so earlier places in
// the plan keep their exact spots.

export interface Spot {
  x: number;
  y: number;
}
export interface Bounds {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** ring directions, most sideways first: a dot's height is its price, its side position only a rate */
const DIRECTIONS = [0, 180, 30, 150, -30, -150, 60, 120, -60, -120, 90, -90].map((d) => (d * Math.PI) / 180);
const RINGS = 400;

/** `wanted` spots moved apart so that circles of radius `r` keep `gap` between them, inside `bounds` */
export function spread(wanted: readonly Spot[], r: number, gap: number, bounds: Bounds): Spot[] {
  const placed: Spot[] = [];
  const apart = 2 * r + gap;
  const inside = (p: Spot): Spot => ({
    x: Math.min(bounds.right - r, Math.max(bounds.left + r, p.x)),
    y: Math.min(bounds.bottom - r, Math.max(bounds.top + r, p.y)),
  });
  const free = (p: Spot) => placed.every((q) => (p.x - q.x) ** 2 + (p.y - q.y) ** 2 >= apart ** 2);
  for (const want of wanted) {
    const home = inside(want);
    let spot = free(home) ? home : null;
    for (let ring = 1; !spot && ring <= RINGS; ring++) {
      for (const a of DIRECTIONS) {
        const p = { x: home.x + Math.cos(a) * ring * (apart / 3), y: home.y + Math.sin(a) * ring * (apart / 3) };
        const c = inside(p);
        if (c.x === p.x && c.y === p.y && free(c)) {
          spot = c;
          break;
        }
      }
    }
    // a plot too small for every dot keeps the last one on its spot rather than nowhere
    placed.push(spot ?? home);
  }
  return placed;
}
