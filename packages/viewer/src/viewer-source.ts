// One results folder the viewer shows: a job's results, or a re-judged setup under it
// (`<results>/judges/<name>/`, same layout, same CAS).
import type { ResultsStore } from '@assay/results';

export interface ViewerSource {
  /** URL-safe id, stable for a viewer session: `0`, `0.judge-name`. */
  id: string;
  label: string;
  /** The local results folder (for `<results>/pages/` rendered by the judge). */
  dir: string;
  store: ResultsStore;
  /** Name of the `assay judge` setup, or null for the job's own records. */
  judge: string | null;
}
