// A Vega-Lite chart, rendered by vega-embed (bundled: no network).
import { useEffect, useRef } from 'preact/hooks';
import embed, { type VisualizationSpec } from 'vega-embed';

export function VegaChart({ spec, label }: { spec: VisualizationSpec; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const done = embed(ref.current, spec, { actions: false, renderer: 'svg' });
    return () => void done.then((r) => r.finalize()).catch(() => undefined);
  }, [JSON.stringify(spec)]);
  return <div class="chart" ref={ref} role="img" aria-label={label} />;
}
