// M/M/1 and M/M/m calculators (Jain boxes 31.1 and 31.2): rates in, queue figures out.
import { FieldError } from "@/components/common/FieldError";
import { fieldErrors } from "@/lib/apiError";
import { useQueueInputs } from "../calculatorsUrlState";
import { useSolveMm1Mutation, useSolveMmmMutation } from "../hooks/useSolveQueueMutations";
import { quantities, splitErrors } from "../utils/quantities";
import { NumberField } from "./NumberField";
import { QuantityTable } from "./QuantityTable";

/** Props of QueueCalculator. */
export interface QueueCalculatorProps {
  /** With servers: M/M/m; without: M/M/1. */
  multi: boolean;
}

const FIELDS = ["arrival_rate_per_s", "service_rate_per_s", "servers"] as const;

export function QueueCalculator({ multi }: QueueCalculatorProps) {
  // Inputs live in the URL (defaults: the published checks in DOMAIN.md).
  const [{ lambda, mu, servers }, setInputs] = useQueueInputs(multi);
  const setLambda = (v: number) => setInputs({ lambda: v });
  const setMu = (v: number) => setInputs({ mu: v });
  const setServers = (v: number) => setInputs({ servers: v });
  const mm1 = useSolveMm1Mutation();
  const mmm = useSolveMmmMutation();
  const solver = multi ? mmm : mm1;
  const { byField, other } = splitErrors(fieldErrors(solver.error), FIELDS);
  const prefix = multi ? "mmm" : "mm1";

  const solve = (e: React.FormEvent) => {
    e.preventDefault();
    const body = { arrival_rate_per_s: lambda, service_rate_per_s: mu };
    if (multi) mmm.mutate({ ...body, servers });
    else mm1.mutate(body);
  };

  return (
    <form className="card" onSubmit={solve} noValidate data-testid={`calc-${prefix}`}>
      <h2>{multi ? "M/M/m" : "M/M/1"}</h2>
      <div className="grid-4">
        <NumberField
          name={`${prefix}-arrival_rate_per_s`}
          label="arrival rate λ"
          unit="1/s"
          value={lambda}
          error={byField.arrival_rate_per_s}
          onChange={setLambda}
        />
        <NumberField
          name={`${prefix}-service_rate_per_s`}
          label={multi ? "service rate μ per server" : "service rate μ"}
          unit="1/s"
          value={mu}
          error={byField.service_rate_per_s}
          onChange={setMu}
        />
        {multi && (
          <NumberField
            name={`${prefix}-servers`}
            label="servers m"
            value={servers}
            error={byField.servers}
            onChange={setServers}
          />
        )}
      </div>
      <FieldError message={other} testId={`error-${prefix}`} />
      <div className="actions">
        <button type="submit" className="primary" disabled={solver.isPending}>
          Solve
        </button>
      </div>
      {solver.data && !solver.error && (
        <QuantityTable rows={quantities(solver.data)} testId={`result-${prefix}`} />
      )}
    </form>
  );
}
