// Metric labels and units for any view, from the served metric table.
import { useMemo } from "react";
import { type MetricLabels, metricLabels } from "@/lib/labels";
import { useGetMetricsQuery } from "./useGetMetricsQuery";

export function useMetricLabels(): MetricLabels {
  const { metrics } = useGetMetricsQuery();
  return useMemo(() => metricLabels(metrics), [metrics]);
}
