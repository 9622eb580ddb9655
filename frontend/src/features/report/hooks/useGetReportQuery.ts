// The experiment's report (hypothesis, notes, items) and the figures and tables the server has.
import { useQuery } from "@tanstack/react-query";
import { FiguresService, ReportsService, TablesService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchReport(id: number) {
  const { data } = await ReportsService.readReport({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

async function fetchFigures(id: number) {
  const { data } = await FiguresService.readFigures({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

async function fetchTables(id: number) {
  const { data } = await TablesService.readTables({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function useGetReportQuery(id: number) {
  const query = useQuery({
    queryKey: queryKeys.experiments.report(id),
    queryFn: () => fetchReport(id),
  });
  return { report: query.data, isLoading: query.isLoading, error: query.error } as const;
}

export function useGetFigureListQuery(id: number) {
  const query = useQuery({
    queryKey: queryKeys.experiments.figureList(id),
    queryFn: () => fetchFigures(id),
  });
  return { figures: query.data, error: query.error } as const;
}

export function useGetTableListQuery(id: number) {
  const query = useQuery({
    queryKey: queryKeys.experiments.tableList(id),
    queryFn: () => fetchTables(id),
  });
  return { tables: query.data, error: query.error } as const;
}
