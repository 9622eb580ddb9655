// The mapping preview of a staged upload: a pure function of the upload and the mapping.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ImportMapping, ImportsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export function usePreviewImportQuery(upload: string | null, mapping: ImportMapping) {
  const query = useQuery({
    queryKey: queryKeys.imports.preview(upload ?? "", mapping),
    queryFn: async () =>
      (
        await ImportsService.previewImport({
          path: { upload: upload ?? "" },
          body: mapping,
          throwOnError: true,
        })
      ).data,
    enabled: upload !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return { preview: query.data, isLoading: query.isLoading, error: query.error };
}
