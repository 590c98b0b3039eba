// The job's spend against its budget: each unit's recorded usage priced once (agents and judges
// kept apart, so `budget.covers` can change on resume), the total and a projection to the end of
// the job shown in `control`, and carried over continue-as-new.
import {
  NO_SPEND,
  addSpend,
  budgetReached,
  priceUsage,
  type Budget,
  type JobControl,
  type JobInput,
  type ResumeRequest,
  type Spend,
  type TrialOutcome,
} from '@assay/core/pure';

export function createJobSpend(input: JobInput) {
  const carried = input.carry;
  let budget: Budget | undefined =
    carried?.budget === null ? undefined : (carried?.budget ?? input.budget ?? undefined);
  const by = carried?.spendBy ?? { agents: { ...NO_SPEND }, judges: { ...NO_SPEND } };
  let units = carried?.spentUnits ?? 0;
  const prices = input.prices ?? {};

  const total = (b: Budget | undefined): Spend =>
    b?.covers === 'agents' ? by.agents : b?.covers === 'judges' ? by.judges : addSpend(by.agents, by.judges);

  const show = (control: JobControl, remaining: () => number): void => {
    const spent = total(budget);
    control.spend = spent;
    control.spendBy = { agents: by.agents, judges: by.judges };
    const left = Math.max(0, remaining());
    const scale = units > 0 ? left / units : 0;
    control.projected = {
      usd: spent.usd * (1 + scale),
      tokens: spent.tokens * (1 + scale),
      agentHours: spent.agentHours * (1 + scale),
      unpricedTokens: spent.unpricedTokens * (1 + scale),
    };
    if (budget) control.budget = budget;
    else delete control.budget;
  };

  return {
    show,
    /** Adds a finished unit's usage; returns why the budget is now reached, or null. */
    account(o: TrialOutcome, control: JobControl, remaining: () => number): string | null {
      if (o.usage) {
        by.agents = addSpend(by.agents, priceUsage(o.usage, prices, 'agents'));
        by.judges = addSpend(by.judges, priceUsage(o.usage, prices, 'judges'));
        units++;
      }
      show(control, remaining);
      return budgetReached(total(budget), budget);
    },
    refuseResume(req: ResumeRequest): string | null {
      const next = req.budget === undefined ? budget : (req.budget ?? undefined);
      const reached = budgetReached(total(next), next);
      return reached ? `${reached}; raise the budget in the job file, then resume` : null;
    },
    setBudget(req: ResumeRequest): void {
      if (req.budget !== undefined) budget = req.budget ?? undefined;
    },
    carry: () => ({ budget: budget ?? null, spendBy: by, spentUnits: units }),
  };
}
