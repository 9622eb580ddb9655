// The experiment catalogue: seed factors and fixed values per template.
import { useQuery } from "@tanstack/react-query";
import { ParametersService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function queryFn() {
  const { data } = await ParametersService.readTemplates({ throwOnError: true });
  return data;
}

export function useGetTemplatesQuery() {
  const query = useQuery({ queryKey: queryKeys.templates(), queryFn, staleTime: Infinity });
  return { templates: query.data, isLoading: query.isLoading, error: query.error } as const;
}
