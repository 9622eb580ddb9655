// The design fields besides the parameters (repetitions, run time, warm-up, cool-down) with
// their labels, units, defaults and bounds, as the backend declares them.
import { useQuery } from "@tanstack/react-query";
import { ParametersService } from "@/api/index";
import { queryKeys } from "@/lib/queryKeys";

async function queryFn() {
  const { data } = await ParametersService.readDesignFields({ throwOnError: true });
  return data;
}

export function useGetDesignFieldsQuery() {
  const query = useQuery({ queryKey: queryKeys.designFields(), queryFn, staleTime: Infinity });
  return { designFields: query.data, isLoading: query.isLoading, error: query.error } as const;
}
