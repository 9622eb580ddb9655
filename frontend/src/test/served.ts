// What the backend serves at /parameters, /metrics and /design-fields (served.gen.json is written by
// scripts/generate-client.sh from the backend itself), so label tests use the real labels.
import type { DesignFieldPublic, MetricPublic, ParameterPublic } from "@/api";
import served from "./served.gen.json";

export const SERVED_PARAMETERS: ParameterPublic[] = served.parameters;
export const SERVED_METRICS: MetricPublic[] = served.metrics;
export const SERVED_DESIGN_FIELDS: DesignFieldPublic[] = served.design_fields;
