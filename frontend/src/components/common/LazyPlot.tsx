// The only way to draw Plotly: lazy-loaded (Plotly is ~4 MB), behind Suspense and an error boundary.
import type { Config, Data, Layout } from "plotly.js";
import { Component, type ErrorInfo, lazy, type ReactNode, Suspense } from "react";

const Plot = lazy(async () => {
  const [{ default: Plotly }, { default: createPlotlyComponent }] = await Promise.all([
    import("plotly.js-dist-min"),
    import("react-plotly.js/factory"),
  ]);
  return { default: createPlotlyComponent(Plotly) };
});

/** Props of LazyPlot. */
export interface LazyPlotProps {
  data: Data[];
  layout: Partial<Layout>;
  config?: Partial<Config>;
  /** Called with the graph div once drawn; export needs it. */
  onInitialized?: (graphDiv: HTMLElement) => void;
  height?: number;
}

class PlotErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("plot failed", error, info.componentStack);
  }

  render() {
    if (this.state.error) {
      return (
        <div className="plot-error">The figure could not be drawn: {this.state.error.message}</div>
      );
    }
    return this.props.children;
  }
}

export function LazyPlot({ data, layout, config, onInitialized, height = 380 }: LazyPlotProps) {
  return (
    <PlotErrorBoundary>
      <Suspense fallback={<div className="skeleton plot-skeleton" style={{ height }} />}>
        <Plot
          data={data}
          layout={{ autosize: true, height, ...layout }}
          config={config}
          useResizeHandler
          style={{ width: "100%" }}
          onInitialized={(_fig, gd) => onInitialized?.(gd)}
          onUpdate={(_fig, gd) => onInitialized?.(gd)}
        />
      </Suspense>
    </PlotErrorBoundary>
  );
}

/** Save a drawn figure as PNG or SVG through Plotly's own exporter. */
export async function downloadFigure(
  graphDiv: HTMLElement,
  format: "png" | "svg",
  filename: string,
): Promise<void> {
  const { default: Plotly } = await import("plotly.js-dist-min");
  await Plotly.downloadImage(graphDiv, { format, filename, width: 900, height: 500 });
}
