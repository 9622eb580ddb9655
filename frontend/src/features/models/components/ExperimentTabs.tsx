// The experiment page's Results | Models | Report switch; the chosen tab lives in the URL
// (?tab=models, ?tab=report).
import type { ReactNode } from "react";
import { EXPERIMENT_TABS, useModelsViewState } from "../urlState";

/** Props of ExperimentTabs. */
export interface ExperimentTabsProps {
  results: ReactNode;
  models: ReactNode;
  report: ReactNode;
}

const TITLES = { results: "Results", models: "Models", report: "Report" } as const;

export function ExperimentTabs({ results, models, report }: ExperimentTabsProps) {
  const [{ tab }, setState] = useModelsViewState();
  return (
    <>
      <div className="tabs" role="tablist">
        {EXPERIMENT_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? "tab active" : "tab"}
            onClick={() => setState({ tab: t }, { history: "push" })}
          >
            {TITLES[t]}
          </button>
        ))}
      </div>
      {tab === "models" ? models : tab === "report" ? report : results}
    </>
  );
}
