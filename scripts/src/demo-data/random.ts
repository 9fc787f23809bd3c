/**
 * A small seeded generator (mulberry32): the same seed gives the same demo data on every machine,
 * which `Math.random` cannot.
 */
export class Random {
  private state: number;
  private spare: number | undefined;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Standard normal (Box-Muller; the second value of each pair is kept for the next call). */
  gauss(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** A child generator whose sequence depends on this seed and `salt` only. */
  fork(salt: number): Random {
    return new Random(hash32(this.state ^ Math.imul(salt + 1, 0x9e3779b1)));
  }
}

/** Mixes the bits of a 32-bit integer (the finaliser of MurmurHash3). */
export function hash32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Noise that wanders around 0 and forgets its past over `tauSeconds` (an Ornstein-Uhlenbeck
 * process): consecutive samples are close, as real measurements are, whatever the interval.
 * `sigma` is the spread of the value, not of a step.
 */
export class Wander {
  private value = 0;

  constructor(
    private readonly rng: Random,
    private readonly sigma: number,
    private readonly tauSeconds: number,
  ) {
    this.value = rng.gauss() * sigma;
  }

  step(dtSeconds: number): number {
    const keep = Math.exp(-dtSeconds / this.tauSeconds);
    this.value = this.value * keep + this.sigma * Math.sqrt(1 - keep * keep) * this.rng.gauss();
    return this.value;
  }
}
