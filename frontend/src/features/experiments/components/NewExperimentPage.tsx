// "New experiment": template picker, factor and fixed-value editors, run settings, live preview.
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { FieldError } from "@/components/common/FieldError";
import { handleError, showSuccess } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { fieldErrors } from "@/lib/apiError";
import { useCreateExperimentMutation } from "../hooks/useCreateExperimentMutation";
import { useGetParametersQuery } from "../hooks/useGetParametersQuery";
import { useGetTemplatesQuery } from "../hooks/useGetTemplatesQuery";
import { usePreviewExperimentQuery } from "../hooks/usePreviewExperimentQuery";
import { type DesignForm, EMPTY_FORM, fromTemplate, toSpec } from "../utils/designForm";
import { FactorEditor } from "./FactorEditor";
import { FixedEditor } from "./FixedEditor";
import { GridPreview } from "./GridPreview";
import { RunSettings } from "./RunSettings";
import { TemplatePicker } from "./TemplatePicker";

export function NewExperimentPage() {
  const navigate = useNavigate();
  const { parameters, isLoading } = useGetParametersQuery();
  const { templates } = useGetTemplatesQuery();
  const [form, setForm] = useState<DesignForm>(EMPTY_FORM);
  const create = useCreateExperimentMutation();
  const spec = useMemo(() => toSpec(form, parameters ?? []), [form, parameters]);
  // The preview has no name yet while the user types; a placeholder keeps it from failing on it.
  const previewSpec = useMemo(() => ({ ...spec, name: spec.name.trim() || "preview" }), [spec]);
  const preview = usePreviewExperimentQuery(previewSpec);

  // Errors of the last submit win; otherwise the live preview's design errors show at the fields.
  const errors = create.error ? fieldErrors(create.error) : fieldErrors(preview.error);
  const update = (patch: Partial<DesignForm>) => {
    if (create.error) create.reset();
    setForm((f) => ({ ...f, ...patch }));
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    create.mutate(spec, {
      onSuccess: (exp) => {
        showSuccess(`Created ${exp.name}`);
        navigate(`/experiments/${exp.id}`);
      },
      onError: (err) => {
        if (Object.keys(fieldErrors(err)).length === 0) handleError(err);
      },
    });
  };

  if (isLoading || !parameters) return <PendingBlock label="Loading parameters" />;

  return (
    <form className="new-experiment" onSubmit={submit} noValidate>
      <div className="page-header">
        <h1>New experiment</h1>
      </div>
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
          <FactorEditor
            parameters={parameters}
            form={form}
            errors={errors}
            onChange={(factors) => update({ factors })}
          />
          <FixedEditor
            parameters={parameters}
            form={form}
            errors={errors}
            onChange={(fixed) => update({ fixed })}
          />
          <RunSettings form={form} errors={errors} onChange={update} />
          <FieldError message={errors[""]} testId="error-body" />
          <div className="actions">
            <button type="submit" className="primary" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create experiment"}
            </button>
          </div>
        </div>
        <aside className="side-column">
          <GridPreview
            preview={preview.preview}
            isFetching={preview.isFetching}
            isStale={preview.isStale}
            hasError={Boolean(preview.error)}
          />
        </aside>
      </div>
    </form>
  );
}
