// The factorial design's diagnostic figures as the server draws them, each with the common
// export row: residuals vs predicted, normal QQ of residuals, half-normal plot of effects,
// main effects and interactions.
import type { FactorialPublic } from "@/api";
import { ServerPlot } from "@/features/export";

/** Props of FactorialDiagnostics. */
export interface FactorialDiagnosticsProps {
  experimentId: number;
  factorial: FactorialPublic;
  /** The factorial's selection as figure parameters (source, request type, window, model). */
  params: Record<string, string | number | boolean | null | undefined>;
  /** Base of the exported file names. */
  filename: string;
}

const FIGURES = [
  { key: "residuals", name: "residuals", title: "Residuals vs predicted" },
  { key: "qq", name: "qq", title: "Normal QQ plot of residuals" },
  { key: "half-normal", name: "half-normal", title: "Half-normal plot of effects" },
  { key: "main-effects", name: "main-effects", title: "Main effects" },
  { key: "interactions", name: "interactions", title: "Interactions" },
] as const;

export function FactorialDiagnostics({
  experimentId,
  factorial,
  params,
  filename,
}: FactorialDiagnosticsProps) {
  return (
    <div className="figures" data-testid="factorial-diagnostics">
      {FIGURES.map((fig) => (
        <ServerPlot
          key={fig.key}
          title={
            fig.key === "half-normal" && factorial.replications === 1
              ? "Half-normal plot of effects (Lenth, r = 1)"
              : fig.title
          }
          figure={{ experimentId, name: fig.name, params }}
          filename={`${filename}-factorial-${fig.key}`}
        />
      ))}
    </div>
  );
}
