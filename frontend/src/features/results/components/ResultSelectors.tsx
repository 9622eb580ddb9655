// Source and request-type selectors shared by the results and compare views.
import type { RequestType } from "@/api";
import type { ResultSource } from "@/lib/queryKeys";
import { REQUEST_TYPES, type SelectableRequestType } from "@/lib/urlState/parsers";

/** Props of ResultSelectors. */
export interface ResultSelectorsProps<S extends string = ResultSource> {
  source: S;
  requestType: RequestType;
  onSource: (s: S) => void;
  onRequestType: (r: SelectableRequestType) => void;
  /** Also offer the monitor's hosts, network interfaces and processes (Compare); their rows
   * cover all requests. */
  monitor?: boolean;
}

export function ResultSelectors<S extends string = ResultSource>({
  source,
  requestType,
  onSource,
  onRequestType,
  monitor = false,
}: ResultSelectorsProps<S>) {
  const perRun = source === "host" || source === "net" || source === "process";
  return (
    <>
      <label>
        Source
        <select value={source} onChange={(e) => onSource(e.target.value as S)}>
          <option value="client">client (load generator)</option>
          <option value="middleware">middleware</option>
          {monitor && <option value="host">hosts (monitor: CPU, memory; summed)</option>}
          {monitor && (
            <option value="net">network interfaces (monitor: bytes, packets; summed)</option>
          )}
          {monitor && <option value="process">processes (monitor: CPU; summed)</option>}
        </select>
      </label>
      <label>
        Request type
        <select
          value={perRun ? "all" : requestType}
          disabled={perRun}
          title={
            perRun
              ? "the monitor measures hosts, interfaces and processes, not request types"
              : undefined
          }
          onChange={(e) => onRequestType(e.target.value as SelectableRequestType)}
        >
          {REQUEST_TYPES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
