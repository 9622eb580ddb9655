// M/M/1 and M/M/m calculators (Jain boxes 31.1 and 31.2): rates in, queue figures out.
import { useState } from "react";
import { FieldError } from "@/components/common/FieldError";
import { fieldErrors } from "@/lib/apiError";
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
  // Defaults are the published checks in DOMAIN.md, so the first answer can be compared.
  const [lambda, setLambda] = useState(multi ? 5955.95 : 18062);
  const [mu, setMu] = useState(multi ? 421.93 : 20788);
  const [servers, setServers] = useState(16);
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
