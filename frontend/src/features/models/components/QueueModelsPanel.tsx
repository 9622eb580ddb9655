// M/M/1 and M/M/m per configuration from the measured arrival and service rates, beside what
// the middleware measured: a figure of one quantity against N and the full table.
import { useMemo, useState } from "react";
import type { ComparedPublic, ExperimentQueueModelsPublic, QueuePredictionPublic } from "@/api";
import { FitMessages, FitWarning } from "@/components/common/FitWarning";
import { ServerPlot, TableExportButtons } from "@/features/export";
import { slug } from "@/lib/download";
import { formatNumber } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";
import { TIME_UNIT, TIME_UNITS_PER_S, timeFromSeconds } from "@/lib/labels";
import { windowQuery } from "@/lib/queryKeys";
import { useResultsSelection } from "@/lib/urlState/resultsSelection";
import { SERVICE_RATES, type ServiceRate } from "../urlState";
import { configLabel, QUEUE_QUANTITIES, type QueueQuantity } from "../utils/fit";

/** Props of QueueModelsPanel. */
export interface QueueModelsPanelProps {
  /** The group's index, as the server's queue-models figure picks it. */
  groupIndex: number;
  models: ExperimentQueueModelsPublic;
  rate: ServiceRate;
  onRate: (rate: ServiceRate) => void;
  /** Only the configurations of this group (factor values besides clients). */
  groupLabel: string | null;
}

const CLIENT_FACTORS = [
  "client_machines",
  "instances_per_machine",
  "threads_per_instance",
  "clients_per_thread",
];
const RATE_TITLES: Record<ServiceRate, string> = {
  worker_time: "mu = 1 / (middleware response - queue time)",
  max_throughput: "layer rate = the group's largest throughput",
};

function cell(c: ComparedPublic, scale: number, digits: number) {
  return (
    <>
      <td className="num">
        {formatNumber(c.predicted === null ? null : c.predicted * scale, digits)}
      </td>
      <td className="num hint">
        {formatNumber(c.error_percent, 0)}
        <FitWarning fit={c.fit} />
      </td>
    </>
  );
}

function predictionCells(p: QueuePredictionPublic | null | undefined) {
  if (!p) return <td colSpan={7}>–</td>;
  return (
    <>
      <td className="num">
        {formatNumber(p.utilization, 3)}
        <FitWarning fit={p.capacity} />
      </td>
      {cell(p.queue_length, 1, 2)}
      {cell(p.waiting_time_s, TIME_UNITS_PER_S, 1)}
      {cell(p.response_time_s, TIME_UNITS_PER_S, 1)}
    </>
  );
}

export function QueueModelsPanel({
  groupIndex,
  models,
  rate,
  onRate,
  groupLabel,
}: QueueModelsPanelProps) {
  const { experimentId, name, requestType, cut: window } = useResultsSelection();
  const labels = useParameterLabels();
  const [quantity, setQuantity] = useState<QueueQuantity>("response_time_s");
  const rows = useMemo(
    () =>
      models.data.filter(
        (r) =>
          groupLabel === null ||
          configLabel(r.values, CLIENT_FACTORS, labels.values) === groupLabel,
      ),
    [models, groupLabel, labels],
  );
  const spec = QUEUE_QUANTITIES.find((q) => q.key === quantity);
  const params = useMemo(
    () => ({
      request_type: requestType,
      group: groupIndex,
      service_rate: rate,
      quantity: spec?.figure ?? "response_time",
      ...windowQuery(window),
    }),
    [requestType, groupIndex, rate, spec, window],
  );
  return (
    <div data-testid="queue-models">
      <div className="toolbar">
        <label>
          service rate
          <select
            name="service-rate"
            value={rate}
            onChange={(e) => onRate(e.target.value as ServiceRate)}
          >
            {SERVICE_RATES.map((r) => (
              <option key={r} value={r}>
                {RATE_TITLES[r]}
              </option>
            ))}
          </select>
        </label>
        <label>
          quantity
          <select
            name="queue-quantity"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value as QueueQuantity)}
          >
            {QUEUE_QUANTITIES.map((q) => (
              <option key={q.key} value={q.key}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="hint">
        λ = throughput measured by the middlewares; m = workers × middlewares; M/M/1 treats the
        layer as one server of rate m·μ. Measured: queue length and queue time of the work queue,
        middleware response time. Errors: 100 (model − measured) / measured.
      </p>
      <ServerPlot
        title={`${spec?.label ?? ""}: M/M/1 and M/M/m against measurement`}
        figure={{ experimentId, name: "queue-models", params }}
        filename={`${slug(name)}-queue-models-${quantity}`}
      />
      <div className="section-header">
        <h3>Per configuration</h3>
        <TableExportButtons
          table={{
            experimentId,
            name: "queue-models",
            params: {
              request_type: requestType,
              group: groupIndex,
              service_rate: rate,
              ...windowQuery(window),
            },
          }}
          filename={`${slug(name)}-queue-models`}
          testId="queue-table-exports"
        />
      </div>
      <table className="table compact" data-testid="queue-models-table">
        <thead>
          <tr>
            <th rowSpan={2}>configuration</th>
            <th className="num" rowSpan={2}>
              N
            </th>
            <th className="num" rowSpan={2}>
              λ (ops/s)
            </th>
            <th className="num" rowSpan={2}>
              S ({TIME_UNIT})
            </th>
            <th colSpan={3}>measured</th>
            <th colSpan={7}>M/M/1</th>
            <th colSpan={7}>M/M/m</th>
          </tr>
          <tr>
            <th className="num">E[nq]</th>
            <th className="num">E[w] ({TIME_UNIT})</th>
            <th className="num">E[r] ({TIME_UNIT})</th>
            {["M/M/1", "M/M/m"].flatMap((m) => [
              <th key={`${m}-rho`} className="num">
                ρ
              </th>,
              <th key={`${m}-q`} className="num">
                E[nq]
              </th>,
              <th key={`${m}-qe`} className="num">
                err %
              </th>,
              <th key={`${m}-w`} className="num">
                E[w] ({TIME_UNIT})
              </th>,
              <th key={`${m}-we`} className="num">
                err %
              </th>,
              <th key={`${m}-r`} className="num">
                E[r] ({TIME_UNIT})
              </th>,
              <th key={`${m}-re`} className="num">
                err %
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const m = r.mmm ?? r.mm1;
            return (
              <tr key={r.configuration_id} title={r.note ?? undefined}>
                <td>{configLabel(r.values, CLIENT_FACTORS, labels.values)}</td>
                <td className="num">{r.clients}</td>
                <td className="num">{formatNumber(r.arrival_rate_per_s, 1)}</td>
                <td className="num">{formatNumber(timeFromSeconds(r.service_time_s), 1)}</td>
                <td className="num">{formatNumber(m?.queue_length.measured, 2)}</td>
                <td className="num">
                  {formatNumber(timeFromSeconds(m?.waiting_time_s.measured), 1)}
                </td>
                <td className="num">
                  {formatNumber(timeFromSeconds(m?.response_time_s.measured), 1)}
                </td>
                {predictionCells(r.mm1)}
                {predictionCells(r.mmm)}
              </tr>
            );
          })}
        </tbody>
      </table>
      <FitMessages
        fits={rows.flatMap((r) =>
          [r.mm1, r.mmm].flatMap((p) =>
            p ? [p.capacity, p.queue_length.fit, p.waiting_time_s.fit, p.response_time_s.fit] : [],
          ),
        )}
      />
      {rows.some((r) => r.note) && (
        <p className="hint">
          Notes: {[...new Set(rows.map((r) => r.note).filter(Boolean))].join("; ")}
        </p>
      )}
    </div>
  );
}
