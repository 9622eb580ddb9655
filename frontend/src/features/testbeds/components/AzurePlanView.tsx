// The plan of a New Azure testbed, shown before anything is created: every resource, the vCPUs
// it needs against the region's quota, and the price per hour and up to the expiry, each VM
// size's price with its date and source (or "no price").
import type { AzureLabPlanPublic, QuotaLinePublic } from "@/api";
import { CostSummary } from "@/components/common/CostSummary";
import { formatMoney } from "@/lib/cost";

/** Props of AzurePlanView. */
export interface AzurePlanViewProps {
  plan: AzureLabPlanPublic;
}

/** Each family's line, then the region's total ("cores"), which every VM draws on. */
function regionalLast(lines: QuotaLinePublic[]): QuotaLinePublic[] {
  return [...lines].sort((a, b) => Number(a.family === "cores") - Number(b.family === "cores"));
}

export function AzurePlanView({ plan }: AzurePlanViewProps) {
  return (
    <div className="azure-plan" data-testid="azure-plan">
      <h3>Plan</h3>
      <p className="hint">
        Resource group {plan.resource_group} in {plan.region}
        {plan.zone ? `, availability zone ${plan.zone}` : " (no zone: regional)"}, image{" "}
        {plan.image}. Nothing is created until you press Create.
      </p>
      {plan.key_missing && (
        <p className="error-text" data-testid="azure-plan-key-missing">
          SSH key: {plan.key_missing}. Put the key pair in the key folder before Create.
        </p>
      )}
      <table className="table compact" data-testid="azure-plan-resources">
        <thead>
          <tr>
            <th>#</th>
            <th>resource</th>
            <th>name</th>
            <th>role</th>
            <th>size</th>
          </tr>
        </thead>
        <tbody>
          {plan.resources.map((r, i) => (
            <tr key={r.label}>
              <td>{i + 1}</td>
              <td>{r.kind}</td>
              <td>{r.name}</td>
              <td>{r.role ?? ""}</td>
              <td>{r.size ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>vCPU quota in {plan.region}</h4>
      {plan.quota.lines.length > 0 && (
        <table className="table compact" data-testid="azure-plan-quota">
          <thead>
            <tr>
              <th>family</th>
              <th>needed</th>
              <th>in use</th>
              <th>limit</th>
              <th>fits</th>
            </tr>
          </thead>
          <tbody>
            {regionalLast(plan.quota.lines).map((q) => (
              <tr key={q.family} className={q.fits ? undefined : "error-cell"}>
                <td>{q.family === "cores" ? "all families (regional vCPUs)" : q.family}</td>
                <td>{q.needed}</td>
                <td>{q.used}</td>
                <td>{q.limit}</td>
                <td>{q.fits ? "yes" : "no"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {plan.quota.error && (
        <p
          className={plan.quota.checked ? "error-text" : "hint"}
          role={plan.quota.checked ? "alert" : undefined}
          data-testid="azure-plan-quota-error"
        >
          {plan.quota.error}
        </p>
      )}
      {!plan.quota.checked && plan.quota.table_vcpus != null && (
        <p className="hint" data-testid="azure-plan-table-vcpus">
          By the size table (Azure's published vCPUs per size), the testbed needs{" "}
          {plan.quota.table_vcpus} vCPUs; compare them with your quota in the Azure portal.
        </p>
      )}
      <h4>Cost</h4>
      <CostSummary cost={plan.per_hour} label="Per hour" testId="azure-plan-per-hour" />
      <CostSummary
        cost={plan.until_expiry}
        label={`Up to the expiry (${plan.expires_in_hours} h)`}
        testId="azure-plan-until-expiry"
      />
      {plan.budget !== null && (
        <p className={plan.over_budget ? "error-text" : "hint"} data-testid="azure-plan-budget">
          Budget {formatMoney(plan.budget, plan.until_expiry.currency)}
          {plan.over_budget ? ": the cost up to the expiry exceeds it." : "."}
        </p>
      )}
    </div>
  );
}
