// Mean value analysis of a closed network for N = 1..population (a computation, not cached).
import { useMutation } from "@tanstack/react-query";
import { AnalysisService, type MvaRequest } from "@/api";

async function solveMva(body: MvaRequest) {
  const { data } = await AnalysisService.solveMvaRoute({ body, throwOnError: true });
  return data;
}

export function useSolveMvaMutation() {
  return useMutation({ mutationFn: solveMva });
}
