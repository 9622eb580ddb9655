// The design form: a new experiment, a copy of one (pre-filled, saved as new), or an edit of one
// that has no runs. Template picker, factor and fixed-value editors, run settings, live preview;
// the draft survives a reload.
import { useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { EmptyState } from "@/components/common/EmptyState";
import { FieldError } from "@/components/common/FieldError";
import { handleError, showSuccess } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { SloSearchEditor } from "@/features/slo";
import { fieldErrors } from "@/lib/apiError";
import { useGetExperimentQuery } from "@/lib/hooks/useGetExperimentQuery";
import { useGetParametersQuery } from "@/lib/hooks/useGetParametersQuery";
import { useCreateExperimentMutation } from "../hooks/useCreateExperimentMutation";
import { useFormDraft } from "../hooks/useFormDraft";
import { useGetDesignFieldsQuery } from "../hooks/useGetDesignFieldsQuery";
import { useGetTemplatesQuery } from "../hooks/useGetTemplatesQuery";
import { PREVIEW_DEBOUNCE_MS, usePreviewExperimentQuery } from "../hooks/usePreviewExperimentQuery";
import { useUpdateExperimentMutation } from "../hooks/useUpdateExperimentMutation";
import {
  DEFAULT_POWER,
  type DesignForm,
  EMPTY_FORM,
  fromExperiment,
  fromTemplate,
  type PowerForm,
  toPowerQuery,
  toSpec,
  withDesignDefaults,
} from "../utils/designForm";
import { DesignModePicker } from "./DesignModePicker";
import { FactorEditor } from "./FactorEditor";
import { FixedEditor } from "./FixedEditor";
import { FractionEditor } from "./FractionEditor";
import { GridPreview } from "./GridPreview";
import { PowerSettings } from "./PowerSettings";
import { RepetitionRuleEditor } from "./RepetitionRuleEditor";
import { RunSettings } from "./RunSettings";
import { TemplatePicker } from "./TemplatePicker";

/** Props of DesignPage. */
export interface DesignPageProps {
  /** new: /experiments/new (a copy with ?from=ID); edit: /experiments/:experimentId/edit. */
  mode: "new" | "edit";
}

export function DesignPage({ mode }: DesignPageProps) {
  const editId = Number(useParams().experimentId);
  const fromId = Number(useSearchParams()[0].get("from"));
  const sourceId = mode === "edit" ? editId : fromId;
  const { experiment: source, isLoading: sourceLoading } = useGetExperimentQuery(
    sourceId || 0,
    sourceId > 0,
  );
  const initial = useMemo((): DesignForm | undefined => {
    if (!sourceId) return EMPTY_FORM;
    if (!source) return undefined;
    return mode === "edit"
      ? fromExperiment(source)
      : fromExperiment(source, `${source.name} (copy)`);
  }, [mode, sourceId, source]);
  const draftKey = mode === "edit" ? `edit-${editId}` : fromId ? `copy-${fromId}` : "new";
  const { form: draft, update: setForm, clear, restored } = useFormDraft(draftKey, initial);
  const form = draft ?? EMPTY_FORM;

  const navigate = useNavigate();
  const { parameters, isLoading } = useGetParametersQuery();
  const { designFields } = useGetDesignFieldsQuery();
  const { templates } = useGetTemplatesQuery();
  const create = useCreateExperimentMutation();
  const edit = useUpdateExperimentMutation();
  const save = mode === "edit" ? edit : create;
  // What the form shows and sends: the fields it leaves out at their served defaults.
  const shown = useMemo(() => withDesignDefaults(form, designFields), [form, designFields]);
  const spec = useMemo(() => toSpec(shown, parameters ?? []), [shown, parameters]);
  // The preview has no name yet while the user types; a placeholder keeps it from failing on it.
  const previewSpec = useMemo(() => ({ ...spec, name: spec.name.trim() || "preview" }), [spec]);
  // A search repeats each rate by its own rule: the grid's repetitions do not apply.
  const searchFields = useMemo(
    () => designFields?.filter((f) => f.name !== "repetitions"),
    [designFields],
  );
  const [powerForm, setPowerForm] = useState<PowerForm>(DEFAULT_POWER);
  const powerQuery = useMemo(() => toPowerQuery(powerForm), [powerForm]);
  const preview = usePreviewExperimentQuery(previewSpec, PREVIEW_DEBOUNCE_MS, powerQuery);

  // Errors of the last submit win; otherwise the live preview's design errors show at the fields.
  const errors = save.error ? fieldErrors(save.error) : fieldErrors(preview.error);
  const update = (patch: Partial<DesignForm>) => {
    if (save.error) save.reset();
    setForm((f) => ({ ...f, ...patch }));
  };

  const saved = (exp: { id: number; name: string }, verb: string) => {
    clear();
    showSuccess(`${verb} ${exp.name}`);
    navigate(`/experiments/${exp.id}`);
  };
  const onError = (err: Error) => {
    if (Object.keys(fieldErrors(err)).length === 0) handleError(err);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (mode === "edit") {
      edit.mutate({ id: editId, spec }, { onSuccess: (exp) => saved(exp, "Saved"), onError });
    } else {
      create.mutate(spec, { onSuccess: (exp) => saved(exp, "Created"), onError });
    }
  };

  if (isLoading || !parameters || (sourceId && sourceLoading)) {
    return <PendingBlock label="Loading the design" />;
  }
  if (sourceId && !source) {
    return (
      <EmptyState title="Experiment not found">
        <Link to="/experiments">Back to experiments</Link>
      </EmptyState>
    );
  }
  const title =
    mode === "edit" ? `Edit ${source?.name}` : source ? `Copy of ${source.name}` : "New experiment";
  const hasRuns = mode === "edit" && Object.values(source?.run_counts ?? {}).some((n) => n > 0);

  return (
    <form className="new-experiment" onSubmit={submit} noValidate>
      <div className="page-header">
        <h1>{title}</h1>
        {restored && (
          <span className="hint" data-testid="draft-restored">
            Unsaved draft restored.{" "}
            <button
              type="button"
              className="link"
              onClick={() => {
                clear();
                setForm(() => initial ?? EMPTY_FORM);
              }}
            >
              Discard it
            </button>
          </span>
        )}
      </div>
      {hasRuns && (
        <p className="hint">
          This experiment has runs, so its design can no longer change: duplicate it instead.
        </p>
      )}
      <div className="columns">
        <div className="main-column">
          <TemplatePicker
            templates={templates ?? []}
            value={form.template}
            onPick={(t) => setForm((f) => fromTemplate(t, f.name))}
          />
          <fieldset>
            <legend>Experiment</legend>
            <label>
              Name
              <input
                name="name"
                value={form.name}
                onChange={(e) => update({ name: e.target.value })}
                aria-invalid={Boolean(errors.name)}
              />
            </label>
            <FieldError message={errors.name} testId="error-name" />
            <label>
              Description
              <textarea
                name="description"
                rows={2}
                value={form.description}
                onChange={(e) => update({ description: e.target.value })}
              />
            </label>
          </fieldset>
          <DesignModePicker form={form} onChange={update} />
          {form.slo ? (
            <SloSearchEditor
              value={form.slo}
              errors={errors}
              onChange={(slo) => update({ slo })}
              settings={preview.error ? undefined : preview.preview?.slo_search?.settings}
            />
          ) : (
            <FactorEditor
              parameters={parameters}
              form={form}
              errors={errors}
              onChange={(factors) => update({ factors })}
            />
          )}
          <FixedEditor
            parameters={parameters}
            form={form}
            errors={errors}
            onChange={(fixed) => update({ fixed })}
          />
          {!form.slo && (
            <FractionEditor
              form={form}
              errors={errors}
              onChange={(fraction) => update({ fraction })}
            />
          )}
          <RunSettings
            form={shown}
            errors={errors}
            onChange={update}
            fields={form.slo ? searchFields : designFields}
            window={preview.error ? undefined : preview.preview?.stable_window}
          />
          {!form.slo && <RepetitionRuleEditor form={shown} errors={errors} onChange={update} />}
          <FieldError message={errors[""]} testId="error-body" />
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending || hasRuns}>
              {mode === "edit"
                ? save.isPending
                  ? "Saving…"
                  : "Save design"
                : save.isPending
                  ? "Creating…"
                  : "Create experiment"}
            </button>
          </div>
        </div>
        <aside className="side-column">
          <GridPreview
            preview={preview.preview}
            isFetching={preview.isFetching}
            isStale={preview.isStale}
            error={preview.error}
          >
            <PowerSettings value={powerForm} errors={errors} onChange={setPowerForm} />
          </GridPreview>
        </aside>
      </div>
    </form>
  );
}
