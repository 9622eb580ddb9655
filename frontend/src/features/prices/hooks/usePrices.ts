// VM prices: the stored list (each with its date and source) and setting one by hand. A price
// set here changes every estimate and cost shown, so those are fetched again.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PricesService, type VmPriceSet } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchPrices() {
  const { data } = await PricesService.readPrices({ throwOnError: true });
  return data;
}

export function useGetPricesQuery() {
  const query = useQuery({ queryKey: queryKeys.prices(), queryFn: fetchPrices });
  return { prices: query.data, isLoading: query.isLoading, error: query.error } as const;
}

/** What the form sends: where, and the price. */
export interface PriceInput {
  region: string;
  size: string;
  body: VmPriceSet;
}

export function useSetPriceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ region, size, body }: PriceInput) => {
      const { data } = await PricesService.putPrice({
        path: { region, size },
        body,
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
