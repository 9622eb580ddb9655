// What a confirmation would store: runs with their parameters (read, supplied, defaults),
// configurations, and the files not used with the reason.
import type { ImportPreview } from "@/api";
import { formatValues } from "../utils/mappingText";

/** Props of ImportPreviewTables. */
export interface ImportPreviewTablesProps {
  preview: ImportPreview;
  runValues: Record<string, string>;
  onRunValues: (key: string, text: string) => void;
}

export function ImportPreviewTables({ preview, runValues, onRunValues }: ImportPreviewTablesProps) {
  return (
    <>
      <section className="card" data-testid="import-runs">
        <h2>
          Runs ({preview.runs.length}, {preview.new_runs} new)
        </h2>
        <table className="table compact">
          <thead>
            <tr>
              <th>Client output</th>
              <th>Started</th>
              <th>Read from the files</th>
              <th>Your values (parameter=value, ...)</th>
              <th>Configuration</th>
              <th>Stable window</th>
            </tr>
          </thead>
          <tbody>
            {preview.runs.map((r) => (
              <tr key={r.key} data-testid="import-run">
                <td>
                  {r.key}
                  <div className="hint">
                    {r.tool}; {r.files.length - 1} more file(s)
                  </div>
                </td>
                <td title={r.started_from}>{new Date(r.started_at).toLocaleString()}</td>
                <td className="hint">{formatValues(r.read)}</td>
                <td>
                  <input
                    aria-label={`Values of ${r.key}`}
                    value={runValues[r.key] ?? ""}
                    placeholder={formatValues(r.supplied)}
                    onChange={(e) => onRunValues(r.key, e.target.value)}
                  />
                  {r.defaulted.length > 0 && (
                    <div className="hint">defaults: {r.defaulted.join(", ")}</div>
                  )}
                </td>
                <td>
                  {r.already_imported !== null
                    ? `imported before (run ${r.already_imported}): skipped`
                    : `#${r.configuration}, repetition ${r.repetition}`}
                </td>
                <td className="hint">{r.stable_window}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" data-testid="import-configurations">
        <h2>Configurations ({preview.configurations.length})</h2>
        <p className="hint">
          Factors:{" "}
          {Object.entries(preview.factors)
            .map(([k, v]) => `${k} ${v.join("/")}`)
            .join("; ") || "none (every run has the same parameters)"}
          . Fixed: {formatValues(preview.fixed)}.
        </p>
        <ul>
          {preview.configurations.map((c) => (
            <li key={c.index}>
              #{c.index}: {formatValues(c.values) || "the one configuration"} ({c.runs} run(s))
            </li>
          ))}
        </ul>
      </section>
      {preview.unused.length > 0 && (
        <section className="card" data-testid="import-unused">
          <h2>Files not used ({preview.unused.length})</h2>
          <table className="table compact">
            <tbody>
              {preview.unused.map((u) => (
                <tr key={u.path}>
                  <td>{u.path}</td>
                  <td className="hint">{u.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
