// Seeded pseudo-random numbers so that every bootstrap in a report is reproducible.
// xoshiro128** (Blackman & Vigna), state filled by splitmix32 from a 32-bit seed.

export interface Rng {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform integer in [0, n), unbiased (rejection sampling). */
  nextInt(n: number): number;
  /** Uniform float in [0, 1). */
  nextFloat(): number;
  /** Fill `out` with uniform integers in [0, n), unbiased (Lemire's multiply-and-reject); n < 2^21. */
  fillInts(n: number, out: Uint32Array): void;
}

export const DEFAULT_SEED = 20_260_101;

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number = DEFAULT_SEED): Rng {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  if ((a | b | c | d) === 0) a = 1;
  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  return {
    nextUint32,
    nextInt(n: number): number {
      if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`nextInt: bad bound ${n}`);
      // Reject the top partial block so every residue is equally likely.
      const limit = 2 ** 32 - (2 ** 32 % n);
      for (;;) {
        const r = nextUint32();
        if (r < limit) return r % n;
      }
    },
    nextFloat: () => nextUint32() / 2 ** 32,
    fillInts(n: number, out: Uint32Array): void {
      if (!Number.isInteger(n) || n <= 0 || n >= 2 ** 21) throw new RangeError(`fillInts: bad bound ${n}`);
      const threshold = (2 ** 32 - n) % n;
      // State in locals for the hot loop (closure slots are slower), written back after.
      let s0 = a;
      let s1 = b;
      let s2 = c;
      let s3 = d;
      for (let i = 0; i < out.length; i++) {
        for (;;) {
          // Inlined xoshiro128** step.
          const x = Math.imul(s1, 5);
          const r = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
          const t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = (s3 << 11) | (s3 >>> 21);
          // r * n < 2^53 is exact in a double: its high 32 bits are the index, the low 32 bits decide rejection.
          const m = r * n;
          const hi = (m / 4294967296) >>> 0;
          if (m - hi * 4294967296 >= threshold) {
            out[i] = hi;
            break;
          }
        }
      }
      a = s0;
      b = s1;
      c = s2;
      d = s3;
    },
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A seed for one named statistic, derived from the report seed, so that adding a
 * system or a figure does not change the resamples (and CIs) of any other.
 */
export function deriveSeed(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
