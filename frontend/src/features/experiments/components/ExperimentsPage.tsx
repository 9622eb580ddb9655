// The experiments list: search by name, filter by template, status and progress, paging.
import { useEffect } from "react";
import { Link } from "react-router";
import { EmptyState } from "@/components/common/EmptyState";
import { handleError } from "@/components/common/handleError";
import { Pager } from "@/components/common/Pager";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useDebounced } from "@/lib/hooks/useDebounced";
import { useGetExperimentsQuery } from "@/lib/hooks/useGetExperimentsQuery";
import { useGetTemplatesQuery } from "../hooks/useGetTemplatesQuery";
import { useExperimentListState } from "../urlState";
import { ExperimentsTable } from "./ExperimentsTable";

const PAGE_SIZE = 20;

export function ExperimentsPage() {
  const [{ q: search, template, skip }, setList] = useExperimentListState();
  const q = useDebounced(search, 300);
  const { experiments, isLoading, error } = useGetExperimentsQuery({
    skip,
    limit: PAGE_SIZE,
    q,
    template,
  });
  const { templates } = useGetTemplatesQuery();

  useEffect(() => {
    if (error) handleError(error);
  }, [error]);

  return (
    <section>
      <div className="page-header">
        <h1>Experiments</h1>
        <div className="actions">
          <Link className="button" to="/experiments/import">
            Import runs
          </Link>
          <Link className="button primary" to="/experiments/new">
            New experiment
          </Link>
        </div>
      </div>
      <div className="toolbar">
        <input
          type="search"
          placeholder="Search by name"
          aria-label="Search experiments"
          value={search}
          onChange={(e) => setList({ q: e.target.value, skip: 0 })}
        />
        <select
          aria-label="Template filter"
          value={template}
          onChange={(e) => setList({ template: e.target.value, skip: 0 }, { history: "push" })}
        >
          <option value="">All templates</option>
          {templates?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </div>
      {isLoading ? (
        <PendingBlock label="Loading experiments" />
      ) : experiments && experiments.count > 0 ? (
        <>
          <ExperimentsTable experiments={experiments.data} templates={templates ?? []} />
          <Pager
            skip={skip}
            limit={PAGE_SIZE}
            count={experiments.count}
            onChange={(v) => setList({ skip: v }, { history: "push" })}
          />
        </>
      ) : (
        <EmptyState title={q || template ? "No experiment matches" : "No experiments yet"}>
          <p>Design a grid of factors and repetitions, then run it on a testbed.</p>
        </EmptyState>
      )}
    </section>
  );
}
