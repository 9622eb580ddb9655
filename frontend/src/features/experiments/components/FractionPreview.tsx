// The fraction a design runs, before it runs: its generators, defining relation, resolution
// and alias table (which effects each column of the design cannot tell apart).
import type { FractionPublic } from "@/api";

/** Props of FractionPreview. */
export interface FractionPreviewProps {
  fraction: FractionPublic;
}

export function FractionPreview({ fraction }: FractionPreviewProps) {
  const omitted = fraction.aliases.some((a) => a.omitted > 0);
  return (
    <div data-testid="fraction-preview">
      <h3>
        2<sup>{`${fraction.k}−${fraction.p}`}</sup> fraction, resolution{" "}
        <span data-testid="fraction-resolution">{fraction.resolution_roman}</span>
      </h3>
      <dl className="stats">
        <dt>Letters</dt>
        <dd>
          {Object.entries(fraction.letters)
            .map(([l, n]) => `${l} = ${n}`)
            .join(", ")}
        </dd>
        <dt>Generators</dt>
        <dd data-testid="fraction-generators">{fraction.generators.join(", ")}</dd>
        <dt>Defining relation</dt>
        <dd>I = {fraction.defining_relation.join(" = ")}</dd>
      </dl>
      <table className="table compact" data-testid="alias-table">
        <thead>
          <tr>
            <th>Column estimates</th>
          </tr>
        </thead>
        <tbody>
          {fraction.aliases.slice(1).map((a) => (
            <tr key={a.label}>
              <td>{a.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {omitted && (
        <p className="hint">“+ …”: interactions of four or more factors, assumed negligible.</p>
      )}
    </div>
  );
}
