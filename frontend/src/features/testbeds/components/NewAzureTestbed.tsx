// New Azure testbed: a topology template (or custom counts), VM size per role, region, image,
// expiry (default and maximum served by the API) and budget. "Show plan" asks the API what
// would be made, what quota it needs and what it costs; Create is offered only for the plan
// on screen, and queues the creation (the lab then shows its progress on this page).
// "Rehearse locally" builds the same role VMs as namespace hosts on this machine instead,
// each link capped at its size's bandwidth (measured or published figure): no Azure needed.
import { useEffect, useMemo, useState } from "react";
import type { AzureLabDefaultsPublic, RehearsalCreate } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { handleError, showSuccess } from "@/components/common/handleError";
import { fieldErrors } from "@/lib/apiError";
import { useCreateAzureLabMutation, usePlanAzureLabMutation } from "../hooks/useAzureLabs";
import { useCreateRehearsalMutation } from "../hooks/useRehearsals";
import {
  type AzureForm,
  initialForm,
  ROLES,
  toRequest,
  withTemplate,
  ZONES,
} from "../utils/azureForm";
import { AzurePlanView } from "./AzurePlanView";

/** Props of NewAzureTestbed. */
export interface NewAzureTestbedProps {
  defaults: AzureLabDefaultsPublic;
  onCreated: () => void;
}

const TEXT_FIELDS = [
  { key: "name", label: "Name", hint: "lower-case; prefix of every VM name" },
  { key: "region", label: "Region", hint: "e.g. westeurope" },
  { key: "image", label: "Image", hint: "publisher:offer:sku:version" },
  { key: "key_path", label: "SSH key", hint: "private key under the key folder; .pub beside it" },
  { key: "ssh_source_cidr", label: "SSH allowed from", hint: "your network, e.g. 203.0.113.0/24" },
  { key: "subnet_prefix", label: "Subnet", hint: "the testbed's private network" },
] as const;

export function NewAzureTestbed({ defaults, onCreated }: NewAzureTestbedProps) {
  const first = defaults.templates[0];
  const [form, setForm] = useState<AzureForm>(() =>
    initialForm(first, defaults.region, defaults.image, defaults.default_expiry_hours),
  );
  const plan = usePlanAzureLabMutation();
  const create = useCreateAzureLabMutation();
  const rehearse = useCreateRehearsalMutation();
  const [basis, setBasis] = useState<RehearsalCreate["bandwidth_basis"]>("measured");
  const request = useMemo(() => toRequest(form), [form]);
  const [plannedFor, setPlannedFor] = useState<string | null>(null);
  const current = plannedFor === JSON.stringify(request) ? plan.data : undefined;
  const errors = {
    ...fieldErrors(plan.error),
    ...fieldErrors(create.error),
    ...fieldErrors(rehearse.error),
  };
  // A refusal about the machine, not a field (no root, no tc): said beside the button.
  const cannotRehearse = fieldErrors(rehearse.error)[""];
  useEffect(() => {
    for (const e of [plan.error, create.error, rehearse.error])
      if (e && Object.keys(fieldErrors(e)).length === 0) handleError(e);
  }, [plan.error, create.error, rehearse.error]);
  const update = (patch: Partial<AzureForm>) => setForm((f) => ({ ...f, ...patch }));
  const quotaBlocks = Boolean(current?.quota.checked && current.quota.error);
  return (
    <section className="card" data-testid="new-azure-testbed">
      <h2>New Azure testbed</h2>
      {!defaults.configured && (
        <p className="error-text">
          No Azure subscription is set (MCSCOPE_AZURE_SUBSCRIPTION_ID): plans show prices but no
          quota, and nothing can be created.
        </p>
      )}
      <fieldset>
        <legend>Topology</legend>
        {defaults.templates.map((t) => (
          <label key={t.name} className="inline-check">
            <input
              type="radio"
              name="azure-template"
              value={t.name}
              checked={form.template === t.name}
              onChange={() => setForm((f) => withTemplate(f, t))}
            />{" "}
            {t.label}
          </label>
        ))}
        <div className="grid-3">
          {ROLES.map((r) => (
            <div key={r.key}>
              <label>
                {r.label}
                <span className="role-inputs">
                  <input
                    type="number"
                    name={`${r.key}-count`}
                    min={0}
                    max={8}
                    value={form[r.key].count}
                    onChange={(e) =>
                      update({
                        template: "custom",
                        [r.key]: { ...form[r.key], count: Number(e.target.value) },
                      })
                    }
                    aria-invalid={Boolean(errors[`${r.key}.count`] || errors[r.key])}
                  />
                  <input
                    name={`${r.key}-size`}
                    value={form[r.key].size}
                    onChange={(e) => update({ [r.key]: { ...form[r.key], size: e.target.value } })}
                    aria-invalid={Boolean(errors[`${r.key}.size`])}
                  />
                </span>
              </label>
              <FieldError
                message={errors[r.key] ?? errors[`${r.key}.count`] ?? errors[`${r.key}.size`]}
                testId={`error-${r.key}`}
              />
            </div>
          ))}
        </div>
        <label className="inline-check">
          <input
            type="checkbox"
            name="jump_host"
            checked={form.jump_host}
            onChange={(e) => update({ jump_host: e.target.checked })}
          />{" "}
          Jump host (one more VM, the only one with a public IP)
        </label>
      </fieldset>
      <fieldset>
        <legend>Where, how long, how much</legend>
        <div className="grid-3">
          {TEXT_FIELDS.map((f) => (
            <div key={f.key}>
              <label>
                {f.label}
                <input
                  name={f.key}
                  value={form[f.key]}
                  placeholder={f.hint}
                  onChange={(e) => update({ [f.key]: e.target.value })}
                  aria-invalid={Boolean(errors[f.key])}
                />
              </label>
              <FieldError message={errors[f.key]} testId={`error-${f.key}`} />
            </div>
          ))}
          <div>
            <label>
              Availability zone
              <select
                name="zone"
                value={form.zone}
                onChange={(e) => update({ zone: e.target.value as AzureForm["zone"] })}
                aria-invalid={Boolean(errors.zone)}
              >
                {ZONES.map((z) => (
                  <option key={z.value} value={z.value}>
                    {z.label}
                  </option>
                ))}
              </select>
            </label>
            <FieldError message={errors.zone} testId="error-zone" />
          </div>
          <div>
            <label>
              Expiry (h, {defaults.min_expiry_hours} to {defaults.max_expiry_hours})
              <input
                type="number"
                name="expires_in_hours"
                min={defaults.min_expiry_hours}
                step={0.5}
                max={defaults.max_expiry_hours}
                value={form.expires_in_hours}
                onChange={(e) => update({ expires_in_hours: Number(e.target.value) })}
                aria-invalid={Boolean(errors.expires_in_hours)}
              />
            </label>
            <FieldError message={errors.expires_in_hours} testId="error-expires_in_hours" />
          </div>
          <div>
            <label>
              Budget in {defaults.currency} (empty: none)
              <input
                name="budget"
                inputMode="decimal"
                value={form.budget}
                onChange={(e) => update({ budget: e.target.value })}
                aria-invalid={Boolean(errors.budget)}
              />
            </label>
            <FieldError message={errors.budget} testId="error-budget" />
          </div>
        </div>
      </fieldset>
      <div className="actions">
        <button
          type="button"
          disabled={plan.isPending}
          onClick={() => {
            const frozen = JSON.stringify(request);
            plan.mutate(request, { onSuccess: () => setPlannedFor(frozen) });
          }}
        >
          {plan.isPending ? "Planning…" : "Show plan"}
        </button>
        <button
          type="button"
          className="primary"
          disabled={!current || quotaBlocks || !defaults.configured || create.isPending}
          title={current ? undefined : "Show the plan of these values first"}
          onClick={() =>
            create.mutate(request, {
              onSuccess: (lab) => {
                showSuccess(`Creating ${lab.name}: its progress is shown below`);
                onCreated();
              },
            })
          }
        >
          Create
        </button>
        {plan.data && !current && (
          <span className="hint">The values changed: show the plan again before creating.</span>
        )}
      </div>
      <fieldset data-testid="rehearse-locally">
        <legend>Rehearse locally</legend>
        <p className="hint">
          Before paying for it: build these servers, middlewares and clients as hosts on this
          machine (network namespaces reached over SSH), each host's outgoing link capped at its VM
          size's bandwidth, and run any design on them. The CPUs stay this machine's, shared by
          every host. Nothing is created on Azure; the rehearsal expires like a testbed.
        </p>
        <div className="actions">
          <label>
            Link caps follow{" "}
            <select
              name="bandwidth_basis"
              value={basis}
              onChange={(e) => setBasis(e.target.value as RehearsalCreate["bandwidth_basis"])}
            >
              <option value="measured">the reports' iperf (A1 101, A2 201, A4 802 Mbit/s)</option>
              <option value="published">Azure's published bandwidth of the size</option>
            </select>
          </label>
          <button
            type="button"
            disabled={rehearse.isPending}
            onClick={() =>
              rehearse.mutate(
                { ...request, bandwidth_basis: basis },
                {
                  onSuccess: (r) => {
                    showSuccess(`Rehearsing ${r.name}: its hosts are being built, see below`);
                    onCreated();
                  },
                },
              )
            }
          >
            {rehearse.isPending ? "Checking this machine…" : "Rehearse locally"}
          </button>
        </div>
        <FieldError message={errors.bandwidth_basis} testId="error-bandwidth_basis" />
        {cannotRehearse && (
          <p className="error-text" data-testid="rehearse-error">
            {cannotRehearse}
          </p>
        )}
      </fieldset>
      {current && <AzurePlanView plan={current} />}
    </section>
  );
}
