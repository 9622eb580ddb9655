// Source and request-type selectors shared by the results and compare views.
import type { RequestType } from "@/api";
import type { ResultSource } from "@/lib/queryKeys";
import { REQUEST_TYPES, type SelectableRequestType } from "@/lib/urlState/parsers";

/** Props of ResultSelectors. */
export interface ResultSelectorsProps {
  source: ResultSource;
  requestType: RequestType;
  onSource: (s: ResultSource) => void;
  onRequestType: (r: SelectableRequestType) => void;
}

export function ResultSelectors({
  source,
  requestType,
  onSource,
  onRequestType,
}: ResultSelectorsProps) {
  return (
    <>
      <label>
        Source
        <select value={source} onChange={(e) => onSource(e.target.value as ResultSource)}>
          <option value="client">client (load generator)</option>
          <option value="middleware">middleware</option>
        </select>
      </label>
      <label>
        Request type
        <select
          value={requestType}
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
