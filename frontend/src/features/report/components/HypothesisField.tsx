// The hypothesis with when it was written, and whether that was before the first run started.
import type { ReportPublic } from "@/api";

/** Props of HypothesisField. */
export interface HypothesisFieldProps {
  report: ReportPublic;
  value: string;
  onChange: (value: string) => void;
}

export function HypothesisField({ report, value, onChange }: HypothesisFieldProps) {
  const at = report.hypothesis_at ? new Date(report.hypothesis_at) : null;
  return (
    <div className="report-field">
      <label className="report-field">
        Hypothesis
        <textarea
          name="hypothesis"
          rows={4}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <p className="hint" data-testid="hypothesis-written">
        {at ? (
          <>
            Written {at.toLocaleString()}{" "}
            {report.hypothesis_before_runs ? (
              <span className="badge badge-finished">written before the runs</span>
            ) : (
              <span className="badge badge-late">written after the runs started</span>
            )}
          </>
        ) : (
          "No hypothesis saved yet; write it before starting the runs."
        )}
      </p>
    </div>
  );
}
