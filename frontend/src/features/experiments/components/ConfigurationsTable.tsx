// The experiment's configuration table: one row per grid point, factor values as columns.
import type { ConfigurationPublic } from "@/api";
import { formatValue } from "@/lib/format";
import { useParameterLabels } from "@/lib/hooks/useParameterLabels";

/** Props of ConfigurationsTable. */
export interface ConfigurationsTableProps {
  configurations: ConfigurationPublic[];
}

export function ConfigurationsTable({ configurations }: ConfigurationsTableProps) {
  const labels = useParameterLabels();
  const columns = configurations[0] ? Object.keys(configurations[0].values) : [];
  return (
    <table className="table compact" data-testid="configurations-table">
      <thead>
        <tr>
          <th>#</th>
          {columns.map((c) => (
            <th key={c}>{labels.title(c)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {configurations.map((c) => (
          <tr key={c.id}>
            <td>{c.index}</td>
            {columns.map((col) => (
              <td key={col}>{formatValue(c.values[col])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
