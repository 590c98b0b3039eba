// The final package: criteria with signed weights, fatal gates, dependencies (and what blocked
// a criterion), reused verdicts, and the scores per target and quality dimension.
import type { ProjectDetail } from './api.js';
import { decisionClass, num, signed } from './format.js';

export function FinalPackageView({
  data,
  criterion,
  href,
}: {
  data: ProjectDetail;
  criterion: string | null;
  href: (id: string) => string;
}) {
  const f = data.final;
  return (
    <section data-testid="final-package">
      <h2>Final package</h2>
      <p>
        score {num(f.score)} (raw {num(f.raw)}) ·{' '}
        {f.gateTriggered ? <span class="bad">gate triggered: {f.gates.join(', ')}</span> : 'no gate triggered'}
        {f.unjudged.length ? ` · unjudged: ${f.unjudged.join(', ')}` : ''}
      </p>
      <p class="muted">files: {f.packageFiles.map((p) => p.path).join(', ')}</p>
      <table class="groups">
        <tbody>
          {[...f.targets, ...f.dimensions].map((g) => (
            <tr key={g.group}>
              <td>{g.group}</td>
              <td class="num">{g.available ? num(g.score) : 'n/a'}</td>
              <td class="muted">positive weight {g.positiveWeight}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table class="criteria" data-testid="final-criteria">
        <thead>
          <tr>
            <th>criterion</th>
            <th>target</th>
            <th>weight</th>
            <th>decision</th>
            <th>effective</th>
            <th>source</th>
            <th>depends on</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody>
          {f.verdicts.map((v) => (
            <tr
              key={v.criterionId}
              id={`item-${v.criterionId}`}
              data-item={v.criterionId}
              class={v.criterionId === criterion ? 'current' : ''}
            >
              <td>
                <a href={href(v.criterionId)}>{v.criterionId}</a>
                {v.text && <div class="criterion">{v.text}</div>}
              </td>
              <td>{v.target}</td>
              <td class="num">{v.fatal ? <span class="bad">gate</span> : signed(v.weight)}</td>
              <td class={decisionClass(v.decision)}>{v.decision}</td>
              <td class="num">{v.effective ?? '—'}</td>
              <td>{v.reusedFrom ? <span class="reused">reused from {v.reusedFrom}</span> : v.source}</td>
              <td>
                {v.dependsOn.join(', ')}
                {v.blockedBy.length > 0 && <div class="bad">blocked by {v.blockedBy.join(', ')}</div>}
              </td>
              <td>{v.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
