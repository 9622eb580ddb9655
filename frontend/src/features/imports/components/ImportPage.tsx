// Import earlier runs: upload an archive (with progress), map what the files do not say,
// check the preview, confirm. Nothing is stored before the confirmation.
import { useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { ImportMapping } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { handleError, showSuccess } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { errorAt, fieldErrors } from "@/lib/apiError";
import { useDebounced } from "@/lib/hooks/useDebounced";
import { useConfirmImportMutation } from "../hooks/useConfirmImportMutation";
import { usePreviewImportQuery } from "../hooks/usePreviewImportQuery";
import { useUploadImportMutation } from "../hooks/useUploadImportMutation";
import { parseValues } from "../utils/mappingText";
import { ImportPreviewTables } from "./ImportPreviewTables";

interface MappingForm {
  name: string;
  pattern: string;
  values: string;
  warmup: number;
  cooldown: number;
  populated: boolean;
  runs: Record<string, string>;
}

const EMPTY: MappingForm = {
  name: "",
  pattern: "",
  values: "",
  warmup: 0,
  cooldown: 0,
  populated: false,
  runs: {},
};

function toMapping(form: MappingForm): { mapping: ImportMapping; error?: string } {
  const common = parseValues(form.values);
  const runs: Record<string, Record<string, unknown>> = {};
  for (const [key, text] of Object.entries(form.runs)) {
    const parsed = parseValues(text);
    if (parsed.error) return { mapping: {}, error: `${key}: ${parsed.error}` };
    if (Object.keys(parsed.values).length) runs[key] = parsed.values;
  }
  return {
    mapping: {
      name: form.name || null,
      pattern: form.pattern || null,
      values: common.values,
      runs,
      warmup_s: form.warmup,
      cooldown_s: form.cooldown,
      populated: form.populated,
    },
    error: common.error,
  };
}

export function ImportPage() {
  const navigate = useNavigate();
  const upload = useUploadImportMutation();
  const [form, setForm] = useState<MappingForm>(EMPTY);
  const staged = upload.data ?? null;
  const debounced = useDebounced(form, 300);
  const { mapping, error: typed } = useMemo(() => toMapping(debounced), [debounced]);
  const { preview, isLoading, error } = usePreviewImportQuery(staged?.id ?? null, mapping);
  const confirm = useConfirmImportMutation(staged?.id ?? "");
  const errors = { ...fieldErrors(error), ...fieldErrors(confirm.error) };
  const set = (patch: Partial<MappingForm>) => setForm((f) => ({ ...f, ...patch }));

  return (
    <section>
      <div className="page-header">
        <h1>Import runs</h1>
        <Link className="button" to="/experiments">
          Back to experiments
        </Link>
      </div>
      <p className="hint">
        A folder of earlier runs as a .tar.gz or .zip (or one output file): memtier_benchmark JSON
        with its HDR files, memaslap output, the middleware's stats folders. Each file is recognised
        by its content; nothing is stored until you confirm.
      </p>
      <section className="card">
        <label>
          Archive
          <input
            type="file"
            aria-label="Archive to import"
            disabled={upload.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) {
                setForm(EMPTY);
                upload.mutate(file, { onError: handleError });
              }
            }}
          />
        </label>
        {upload.isPending && (
          <progress
            className="progress-bar"
            max={1}
            value={upload.progress}
            aria-label="Upload progress"
          />
        )}
        {staged && (
          <p className="hint" data-testid="import-staged">
            {staged.source}: {staged.files} file(s) staged until{" "}
            {new Date(staged.expires_at).toLocaleString()}.
          </p>
        )}
      </section>
      {staged && (
        <section className="card" data-testid="import-mapping">
          <h2>What the files do not say</h2>
          <label>
            Experiment name
            <input
              value={form.name}
              placeholder={preview?.name ?? ""}
              onChange={(e) => set({ name: e.target.value })}
            />
          </label>
          <FieldError message={errorAt(errors, "name")} />
          <label>
            Pattern over file paths (named groups are parameters)
            <input
              value={form.pattern}
              placeholder="e.g. w(?P<workers>\d+)/"
              onChange={(e) => set({ pattern: e.target.value })}
            />
          </label>
          <FieldError message={errorAt(errors, "pattern")} testId="pattern-error" />
          <label>
            Values for every run (parameter=value, ...)
            <input
              value={form.values}
              placeholder="e.g. servers=3, middlewares=1"
              onChange={(e) => set({ values: e.target.value })}
            />
          </label>
          <FieldError
            message={
              Object.entries(errors)
                .filter(([k]) => k.startsWith("values") || k.startsWith("runs"))
                .map(([k, v]) => `${k}: ${v}`)
                .join("; ") || typed
            }
          />
          <label>
            Warm-up cut (s)
            <input
              type="number"
              min={0}
              value={form.warmup}
              onChange={(e) => set({ warmup: Number(e.target.value) })}
            />
          </label>
          <label>
            Cool-down cut (s)
            <input
              type="number"
              min={0}
              value={form.cooldown}
              onChange={(e) => set({ cooldown: Number(e.target.value) })}
            />
          </label>
          <FieldError message={errorAt(errors, "warmup_s") ?? errorAt(errors, "cooldown_s")} />
          <label className="inline-check">
            <input
              type="checkbox"
              checked={form.populated}
              onChange={(e) => set({ populated: e.target.checked })}
            />
            The servers held every key before the runs (a miss is flagged)
          </label>
        </section>
      )}
      {staged && isLoading && <PendingBlock label="Reading the files" rows={4} />}
      {staged && preview && (
        <>
          {preview.problems.length > 0 && (
            <div className="card field-error" role="alert" data-testid="import-problems">
              {preview.problems.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          )}
          <ImportPreviewTables
            preview={preview}
            runValues={form.runs}
            onRunValues={(key, text) => set({ runs: { ...form.runs, [key]: text } })}
          />
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={!preview.can_confirm || confirm.isPending || typed !== undefined}
              onClick={() =>
                confirm.mutate(mapping, {
                  onSuccess: (out) => {
                    showSuccess(
                      `Stored ${out.stored_runs} run(s); ${out.skipped_runs} imported before`,
                    );
                    if (out.experiment_id !== null) navigate(`/experiments/${out.experiment_id}`);
                  },
                  onError: handleError,
                })
              }
            >
              Confirm import of {preview.new_runs} run(s)
            </button>
          </div>
        </>
      )}
    </section>
  );
}
