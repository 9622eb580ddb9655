// The experiment page below its summary: Results | Runs | Configurations | Models | Report, one
// shown at a time so the page stays short; the chosen tab lives in the URL (?tab=runs).
import type { ReactNode } from "react";
import { EXPERIMENT_TABS, type ExperimentTab, useExperimentTab } from "../urlState";

/** Props of ExperimentTabs: each tab's content, and what a tab's title counts. */
export interface ExperimentTabsProps {
  panels: Record<ExperimentTab, ReactNode>;
  /** Shown after a tab's title, e.g. the number of runs. */
  counts?: Partial<Record<ExperimentTab, number>>;
  /** The tab without ?tab=. */
  fallback: ExperimentTab;
}

const TITLES: Record<ExperimentTab, string> = {
  results: "Results",
  runs: "Runs",
  configurations: "Configurations",
  models: "Models",
  report: "Report",
};

export function ExperimentTabs({ panels, counts = {}, fallback }: ExperimentTabsProps) {
  const [{ tab }, setState] = useExperimentTab();
  const shown = tab ?? fallback;
  return (
    <>
      <div className="tabs" role="tablist" data-testid="experiment-tabs">
        {EXPERIMENT_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-controls="experiment-tab-panel"
            aria-selected={shown === t}
            className={shown === t ? "tab active" : "tab"}
            onClick={() => setState({ tab: t })}
          >
            {TITLES[t]}
            {counts[t] !== undefined && <span className="tab-count"> {counts[t]}</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="experiment-tab-panel" aria-labelledby={`tab-${shown}`}>
        {panels[shown]}
      </div>
    </>
  );
}
