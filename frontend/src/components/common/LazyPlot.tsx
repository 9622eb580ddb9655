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

/** Formats a figure can be saved in. */
export type FigureFormat = "png" | "svg" | "pdf";
export const FIGURE_FORMATS: readonly FigureFormat[] = ["png", "svg", "pdf"];

const EXPORT_WIDTH = 900;
const EXPORT_HEIGHT = 500;
const PDF_SCALE = 3; // print resolution: 2700 x 1500 px on a 9.4 x 5.2 in page

/** Save a drawn figure: PNG or SVG through Plotly's own exporter; PDF as a page around a
 * high-resolution JPEG rendering (Plotly has no PDF output in the browser). */
export async function downloadFigure(
  graphDiv: HTMLElement,
  format: FigureFormat,
  filename: string,
): Promise<void> {
  const { default: Plotly } = await import("plotly.js-dist-min");
  if (format !== "pdf") {
    await Plotly.downloadImage(graphDiv, {
      format,
      filename,
      width: EXPORT_WIDTH,
      height: EXPORT_HEIGHT,
    });
    return;
  }
  const [{ dataUrlBytes, jpegToPdf }, { downloadBytes }] = await Promise.all([
    import("@/features/export/utils/pdf"),
    import("@/features/export/utils/download"),
  ]);
  const jpeg = await Plotly.toImage(graphDiv, {
    format: "jpeg",
    width: EXPORT_WIDTH,
    height: EXPORT_HEIGHT,
    scale: PDF_SCALE,
  });
  const pdf = jpegToPdf({
    jpeg: dataUrlBytes(jpeg),
    widthPx: EXPORT_WIDTH * PDF_SCALE,
    heightPx: EXPORT_HEIGHT * PDF_SCALE,
    pageWidthCssPx: EXPORT_WIDTH,
    pageHeightCssPx: EXPORT_HEIGHT,
  });
  downloadBytes(`${filename}.pdf`, pdf, "application/pdf");
}
