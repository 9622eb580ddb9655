// The New Azure testbed form: its state, a template's counts and sizes, the request it becomes,
// and the words a lab's expiry and progress are shown in.
import type { AzureLabCreate, AzureLabPublic, AzureTemplatePublic } from "@/api";

export interface RoleForm {
  count: number;
  size: string;
}

export interface AzureForm {
  template: string;
  name: string;
  region: string;
  /** Availability zone; empty: regional (Azure picks). */
  zone: "" | "1" | "2" | "3";
  image: string;
  servers: RoleForm;
  middlewares: RoleForm;
  clients: RoleForm;
  key_path: string;
  ssh_source_cidr: string;
  subnet_prefix: string;
  jump_host: boolean;
  expires_in_hours: number;
  /** Empty: no budget. */
  budget: string;
}

export const ROLES = [
  { key: "servers", label: "Servers (memcached)" },
  { key: "middlewares", label: "Middlewares" },
  { key: "clients", label: "Clients (load generators)" },
] as const;

/** The form with a template's counts and sizes, everything else kept. */
export function withTemplate(form: AzureForm, t: AzureTemplatePublic): AzureForm {
  return {
    ...form,
    template: t.name,
    servers: { count: t.servers, size: t.server_size },
    middlewares: { count: t.middlewares, size: t.middleware_size },
    clients: { count: t.clients, size: t.client_size },
  };
}

export function initialForm(
  t: AzureTemplatePublic | undefined,
  region: string,
  image: string,
  expiresInHours: number,
): AzureForm {
  const form: AzureForm = {
    template: "custom",
    name: "",
    region,
    zone: "",
    image,
    servers: { count: 0, size: "" },
    middlewares: { count: 0, size: "" },
    clients: { count: 0, size: "" },
    key_path: "id_ed25519",
    ssh_source_cidr: "",
    subnet_prefix: "10.42.1.0/24",
    jump_host: true,
    expires_in_hours: expiresInHours,
    budget: "",
  };
  return t ? withTemplate(form, t) : form;
}

/** The request body; the server checks every value (a 422 names the field). */
export function toRequest(form: AzureForm): AzureLabCreate {
  const budget = form.budget.trim();
  return {
    name: form.name.trim(),
    region: form.region.trim(),
    zone: form.zone === "" ? null : form.zone,
    image: form.image.trim() || null,
    servers: form.servers,
    middlewares: form.middlewares,
    clients: form.clients,
    key_path: form.key_path.trim(),
    ssh_source_cidr: form.ssh_source_cidr.trim(),
    subnet_prefix: form.subnet_prefix.trim(),
    jump_host: form.jump_host,
    expires_in_hours: form.expires_in_hours,
    budget: budget === "" ? null : Number(budget),
  };
}

/** The zone select's choices: regional, or one of the three availability zones. */
export const ZONES = [
  { value: "", label: "no zone (regional)" },
  { value: "1", label: "zone 1" },
  { value: "2", label: "zone 2" },
  { value: "3", label: "zone 3" },
] as const;

/** 14523 s -> "4 h 02 min 03 s"; at or below zero -> "expired". */
export function formatCountdown(seconds: number): string {
  if (seconds <= 0) return "expired";
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h} h ${pad(m)} min ${pad(s % 60)} s` : `${m} min ${pad(s % 60)} s`;
}

/** Labs whose state is changing: the list is polled while any is. */
export const BUSY: ReadonlySet<AzureLabPublic["status"]> = new Set([
  "queued",
  "creating",
  "stopping",
  "starting",
  "deleting",
]);

export type ResourceState = "created" | "creating" | "pending";

/** Each planned resource with its state: created (in progress), the next one being created
 * while the lab is creating, the rest pending. */
export function resourceStates(lab: AzureLabPublic): { label: string; state: ResourceState }[] {
  const done = new Set(lab.progress);
  let next = lab.status === "creating";
  return lab.planned.map((label) => {
    if (done.has(label)) return { label, state: "created" as const };
    const state: ResourceState = next ? "creating" : "pending";
    next = false;
    return { label, state };
  });
}
