// Kendall's tau-b between two rankings (ties handled as in scipy.stats.kendalltau),
// used to say whether swapping the harness preserves the model ranking.

/** tau-b of paired values; null when fewer than 2 pairs or one side is constant. */
export function kendallTau(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError('kendallTau: x and y differ in length');
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      pairs++;
      const dx = Math.sign((x[j] as number) - (x[i] as number));
      const dy = Math.sign((y[j] as number) - (y[i] as number));
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const denom = Math.sqrt((pairs - tiesX) * (pairs - tiesY));
  if (pairs === 0 || denom === 0) return null;
  return (concordant - discordant) / denom;
}
