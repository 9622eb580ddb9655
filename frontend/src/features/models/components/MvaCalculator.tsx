// Closed-network MVA: stations in, throughput and response time vs N (with bounds) out.
import { useMemo } from "react";
import { FieldError } from "@/components/common/FieldError";
import { ServerPlot } from "@/features/export";
import { fieldErrors } from "@/lib/apiError";
import { formatNumber } from "@/lib/format";
import { TIME_UNIT, timeFromSeconds } from "@/lib/labels";
import type { CalculatorFigure } from "@/lib/serverFigure";
import { useMvaInputs } from "../calculatorsUrlState";
import { useSolveMvaMutation } from "../hooks/useSolveMvaMutation";
import { type StationRow, stationsAtMax, toMvaRequest } from "../utils/mva";
import { splitErrors } from "../utils/quantities";
import { NumberField } from "./NumberField";
import { StationsEditor } from "./StationsEditor";

export function MvaCalculator() {
  // Inputs live in the URL, so a solved network can be reloaded or sent as a link.
  const [{ stations, population, think: thinkUs }, setInputs] = useMvaInputs();
  const setStations = (v: StationRow[]) => setInputs({ stations: v });
  const setPopulation = (v: number) => setInputs({ population: v });
  const setThinkUs = (v: number) => setInputs({ think: v });
  const mva = useSolveMvaMutation();
  const errors = fieldErrors(mva.error);
  const { byField, other } = splitErrors(
    Object.fromEntries(Object.entries(errors).filter(([k]) => !k.startsWith("stations."))),
    ["population", "think_time_s"],
  );
  const result = mva.error ? undefined : mva.data;
  // The figure of the network solved (not of the form as edited since): drawn by the server.
  const solved = mva.variables;
  const figure: CalculatorFigure | null = useMemo(
    () => (solved ? { calculator: "mva-calculator", body: solved } : null),
    [solved],
  );
  const last = result ? result.populations.length - 1 : 0;

  return (
    <form
      className="card"
      noValidate
      data-testid="calc-mva"
      onSubmit={(e) => {
        e.preventDefault();
        mva.mutate(toMvaRequest(stations, population, thinkUs));
      }}
    >
      <h2>Mean value analysis (closed network)</h2>
      <p className="hint">
        Defaults: one middleware serving gets, as modelled in the reports (Octave reference: X =
        2,940/s at N = 24).
      </p>
      <StationsEditor stations={stations} errors={errors} onChange={setStations} />
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            setStations([
              ...stations,
              {
                name: `station ${stations.length}`,
                kind: "queue",
                service_us: 1000,
                visits: 1,
                servers: 1,
              },
            ])
          }
        >
          Add station
        </button>
      </div>
      <div className="grid-4">
        <NumberField
          name="mva-population"
          label="clients N"
          value={population}
          error={byField.population}
          onChange={setPopulation}
        />
        <NumberField
          name="mva-think"
          label="think time Z"
          unit={TIME_UNIT}
          value={thinkUs}
          error={byField.think_time_s}
          onChange={setThinkUs}
        />
      </div>
      <FieldError message={other} testId="error-mva" />
      <div className="actions">
        <button type="submit" className="primary" disabled={mva.isPending}>
          Solve
        </button>
      </div>
      {result && (
        <>
          <dl className="stats inline" data-testid="result-mva">
            <dt>X(N={result.populations[last]})</dt>
            <dd data-testid="mva-throughput">
              {formatNumber(result.throughput_per_s[last], 2)} /s
            </dd>
            <dt>R(N)</dt>
            <dd>
              {formatNumber(timeFromSeconds(result.response_time_s[last]), 1)} {TIME_UNIT}
            </dd>
            <dt>bottleneck</dt>
            <dd data-testid="mva-bottleneck">{result.bottleneck}</dd>
          </dl>
          {figure && <ServerPlot title="X and R vs N" figure={figure} filename="mva" />}
          <table className="table compact" data-testid="mva-stations">
            <thead>
              <tr>
                <th>station at N = {result.populations[last]}</th>
                <th className="num">throughput (1/s)</th>
                <th className="num">utilization per server</th>
                <th className="num">P(busy)</th>
                <th className="num">residence time ({TIME_UNIT})</th>
                <th className="num">queue length</th>
              </tr>
            </thead>
            <tbody>
              {stationsAtMax(result).map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td className="num">{formatNumber(s.throughput, 2)}</td>
                  <td className="num">{formatNumber(s.utilization, 3)}</td>
                  <td className="num">{s.probBusy === null ? "–" : formatNumber(s.probBusy, 3)}</td>
                  <td className="num">{formatNumber(s.residenceUs, 1)}</td>
                  <td className="num">{formatNumber(s.queueLength, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </form>
  );
}
