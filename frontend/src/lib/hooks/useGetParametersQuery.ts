// The declared parameter schema (names, kinds, units, ranges) that drives the factor editor.
import { useQuery } from "@tanstack/react-query";
import { ParametersService } from "@/api/index";
import { queryKeys } from "@/lib/queryKeys";

async function queryFn() {
  const { data } = await ParametersService.readParameters({ throwOnError: true });
  return data;
}

export function useGetParametersQuery() {
  const query = useQuery({ queryKey: queryKeys.parameters(), queryFn, staleTime: Infinity });
  return { parameters: query.data, isLoading: query.isLoading, error: query.error } as const;
}
