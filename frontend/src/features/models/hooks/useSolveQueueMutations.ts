// M/M/1 and M/M/m calculators: pure computations on the server, nothing cached to invalidate.
import { useMutation } from "@tanstack/react-query";
import { AnalysisService, type MMmRequest, type Mm1Request } from "@/api";

async function solveMm1(body: Mm1Request) {
  const { data } = await AnalysisService.solveMm1({ body, throwOnError: true });
  return data;
}

async function solveMmm(body: MMmRequest) {
  const { data } = await AnalysisService.solveMmm({ body, throwOnError: true });
  return data;
}

export function useSolveMm1Mutation() {
  return useMutation({ mutationFn: solveMm1 });
}

export function useSolveMmmMutation() {
  return useMutation({ mutationFn: solveMmm });
}
