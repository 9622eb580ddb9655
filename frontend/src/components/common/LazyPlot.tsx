// The only way to draw Plotly: lazy-loaded (Plotly is ~4 MB), behind Suspense and an error boundary.
import type { Config, Data, Layout } from "plotly.js";
import { Component, type ErrorInfo, lazy, type ReactNode, Suspense, useMemo, useRef } from "react";

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
  height?: number;
  /** Called with the graph div after a restyle (e.g. brushing parallel coordinates). */
  onRestyle?: (graphDiv: HTMLElement) => void;
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

export function LazyPlot({ data, layout, config, height = 380, onRestyle }: LazyPlotProps) {
  const graphDiv = useRef<HTMLElement | null>(null);
  // One object per layout: a new one on every parent render would make react-plotly call
  // Plotly.react each time with the layout Plotly itself mutated (e.g. a zoomed range), which
  // drops the remembered pre-zoom values that let a later redraw keep the user's zoom.
  const fullLayout = useMemo(() => ({ autosize: true, height, ...layout }), [layout, height]);
  return (
    <PlotErrorBoundary>
      <Suspense fallback={<div className="skeleton plot-skeleton" style={{ height }} />}>
        <Plot
          data={data}
          layout={fullLayout}
          config={config}
          useResizeHandler
          // The height on the element too: a resize (Plots.resize) deletes layout.height when
          // no width is set and lets autosize take the element's height, which without this
          // is 0; the figure then overflows its card over what follows it.
          style={{ width: "100%", height }}
          // The graph div, for onRestyle (react-plotly hands it over on each draw).
          onInitialized={(_fig, gd) => {
            graphDiv.current = gd;
          }}
          onUpdate={(_fig, gd) => {
            graphDiv.current = gd;
          }}
          onRestyle={() => {
            if (graphDiv.current) onRestyle?.(graphDiv.current);
          }}
        />
      </Suspense>
    </PlotErrorBoundary>
  );
}
