// Parameter labels and units for any view, from the served parameter schema.
import { useMemo } from "react";
import { type ParameterLabels, parameterLabels } from "@/lib/labels";
import { useGetParametersQuery } from "./useGetParametersQuery";

export function useParameterLabels(): ParameterLabels {
  const { parameters } = useGetParametersQuery();
  return useMemo(() => parameterLabels(parameters), [parameters]);
}
