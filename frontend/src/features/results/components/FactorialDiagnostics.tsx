// The factorial design's diagnostic figures, each with the common export row: residuals vs
// predicted, normal QQ of residuals, half-normal plot of effects, main effects, interactions.
import type { Data } from "plotly.js";
import { useMemo } from "react";
import type { FactorialPublic } from "@/api";
import { FitPlot } from "@/features/models/components/FitPlot";
import {
  halfNormalTraces,
  interactionTraces,
  mainEffectTraces,
  qqTraces,
  residualTraces,
} from "./FactorialDiagnostics.utils";

/** Props of FactorialDiagnostics. */
export interface FactorialDiagnosticsProps {
  factorial: FactorialPublic;
  /** Base of the exported file names. */
  filename: string;
}

interface Figure {
  key: string;
  title: string;
  traces: Data[];
  xTitle: string;
  yTitle: string;
}

export function FactorialDiagnostics({ factorial: f, filename }: FactorialDiagnosticsProps) {
  const y = f.multiplicative ? "log10 y" : "y";
  const figures = useMemo<Figure[]>(
    () => [
      {
        key: "residuals",
        title: "Residuals vs predicted",
        traces: residualTraces(f),
        xTitle: `predicted ${y}`,
        yTitle: "residual",
      },
      {
        key: "qq",
        title: "Normal QQ plot of residuals",
        traces: qqTraces(f),
        xTitle: "normal quantile",
        yTitle: "residual",
      },
      {
        key: "half-normal",
        title:
          f.replications === 1
            ? "Half-normal plot of effects (Lenth, r = 1)"
            : "Half-normal plot of effects",
        traces: halfNormalTraces(f),
        xTitle: "half-normal quantile",
        yTitle: "|effect|",
      },
      {
        key: "main-effects",
        title: "Main effects",
        traces: mainEffectTraces(f),
        xTitle: "level",
        yTitle: `mean ${y}`,
      },
      {
        key: "interactions",
        title: "Interactions",
        traces: interactionTraces(f),
        xTitle: "level",
        yTitle: `mean ${y}`,
      },
    ],
    [f, y],
  );
  return (
    <div className="figures" data-testid="factorial-diagnostics">
      {figures.map((fig) => (
        <FitPlot
          key={fig.key}
          title={fig.title}
          traces={fig.traces}
          xTitle={fig.xTitle}
          yTitle={fig.yTitle}
          filename={`${filename}-factorial-${fig.key}`}
        />
      ))}
    </div>
  );
}
