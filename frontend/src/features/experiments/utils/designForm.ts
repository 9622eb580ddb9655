// The "New experiment" form state and its conversion to the API's ExperimentCreate body.
import type {
  DesignFieldPublic,
  ExperimentCreate,
  ExperimentPublic,
  ParameterPublic,
  RepetitionRuleSpec,
  Template,
  TemplatePublic,
} from "@/api";
import { fromSloSearch, type SloForm, toSloSearch } from "@/features/slo";

export interface FactorRow {
  name: string;
  /** Levels as typed: comma separated. */
  levels: string;
}

export interface FixedRow {
  name: string;
  value: string;
}

/** How much of a two-level grid runs: all of it, or a 2^(k-p) fraction. */
export interface FractionForm {
  mode: "full" | "resolution" | "generators";
  /** 3 = III, 4 = IV, 5 = V. */
  resolution: number;
  /** As typed: "D = AB, E = AC". */
  generators: string;
}

export const FULL_GRID: FractionForm = { mode: "full", resolution: 3, generators: "" };

/** What the preview's detectable effects assume (not part of the design). */
export interface PowerForm {
  noiseExperimentId: number | null;
  /** As typed; "" = none. */
  noiseStd: string;
  alpha: number;
  power: number;
}

export const DEFAULT_POWER: PowerForm = {
  noiseExperimentId: null,
  noiseStd: "",
  alpha: 0.05,
  power: 0.8,
};

/** The preview's query parameters for `p`. */
export function toPowerQuery(p: PowerForm): {
  alpha: number;
  power: number;
  noise_std?: number;
  noise_experiment_id?: number;
} {
  const std = Number(p.noiseStd);
  return {
    alpha: p.alpha,
    power: p.power,
    ...(p.noiseExperimentId !== null
      ? { noise_experiment_id: p.noiseExperimentId }
      : p.noiseStd.trim() !== "" && Number.isFinite(std)
        ? { noise_std: std }
        : {}),
  };
}

export interface DesignForm {
  name: string;
  description: string;
  template: Template;
  factors: FactorRow[];
  fixed: FixedRow[];
  // The design fields (GET /design-fields); absent: the served default, which the server also
  // applies, so the UI writes none of them.
  repetitions?: number;
  run_time_s?: number;
  warmup_s?: number;
  cooldown_s?: number;
  /** The testbed the runs go to; null = the local one. */
  testbed_id?: number | null;
  /** Repetitions by a rule (the minimum is `repetitions`); null or absent = fixed repetitions. */
  rule?: RuleForm | null;
  /** Absent in drafts saved before fractions: the full grid. */
  fraction?: FractionForm;
  /** A latency-SLO search instead of a grid; null or absent = a grid. The grid's factors,
   * fraction and rule stay in the form (switching back restores them) but are not sent. */
  slo?: SloForm | null;
}

/** The repetition rule as the form edits it; its minimum is the form's `repetitions`. */
export interface RuleForm {
  metric: NonNullable<RepetitionRuleSpec["metric"]>;
  half_width_pct: number;
  confidence: number;
  max_repetitions: number;
}

/** The rule a user turns on: 5 % of the mean at 95 %, up to 10 repetitions. */
export const DEFAULT_RULE: RuleForm = {
  metric: "throughput_per_s",
  half_width_pct: 5,
  confidence: 0.95,
  max_repetitions: 10,
};

/** A new design: nothing chosen, every design field at its served default. */
export const EMPTY_FORM: DesignForm = {
  name: "",
  description: "",
  template: "custom",
  factors: [],
  fixed: [],
};

const DESIGN_KEYS = ["repetitions", "run_time_s", "warmup_s", "cooldown_s"] as const;
/** A design field the form holds. */
export type DesignFieldKey = (typeof DESIGN_KEYS)[number];

export function isDesignFieldKey(name: string): name is DesignFieldKey {
  return (DESIGN_KEYS as readonly string[]).includes(name);
}

/** `form` with each design field it leaves out at the served default (as shown and sent);
 * while the fields load (`fields` undefined) they stay out and the server applies them. */
export function withDesignDefaults(
  form: DesignForm,
  fields: readonly DesignFieldPublic[] | undefined,
): DesignForm {
  const defaults = Object.fromEntries(
    (fields ?? []).filter((f) => isDesignFieldKey(f.name)).map((f) => [f.name, f.default]),
  );
  return { ...defaults, ...definedOnly(form) };
}

function definedOnly(form: DesignForm): DesignForm {
  return Object.fromEntries(
    Object.entries(form).filter(([, v]) => v !== undefined),
  ) as unknown as DesignForm;
}

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/**
 * One typed level. Anything that does not look like the kind is sent as typed, so the
 * server's 422 (with its own message) explains what is wrong at the field.
 */
export function parseLevel(kind: string, text: string): unknown {
  const t = text.trim();
  switch (kind) {
    case "int":
      return /^-?\d+$/.test(t) ? Number(t) : t;
    case "bool": {
      const lower = t.toLowerCase();
      if (TRUE_WORDS.has(lower)) return true;
      if (FALSE_WORDS.has(lower)) return false;
      return t;
    }
    case "replication":
      return /^\d+$/.test(t) ? Number(t) : t;
    default:
      return t;
  }
}

export function parseLevels(kind: string, text: string): unknown[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => parseLevel(kind, s));
}

export function formatLevel(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function kindOf(params: ParameterPublic[], name: string): string {
  return params.find((p) => p.name === name)?.kind ?? "choice";
}

/** "D = AB, E = -AC" (commas or semicolons) -> ["D = AB", "E = -AC"]. */
export function parseGenerators(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The request's fraction: null for the full grid. */
export function toFraction(f: FractionForm | undefined): ExperimentCreate["fraction"] {
  if (!f || f.mode === "full") return null;
  return f.mode === "resolution"
    ? { resolution: f.resolution }
    : { generators: parseGenerators(f.generators) };
}

function fromFraction(stored: ExperimentPublic["fraction"]): FractionForm {
  if (!stored) return FULL_GRID;
  const gens = stored.generators as string[] | null | undefined;
  if (gens) return { ...FULL_GRID, mode: "generators", generators: gens.join(", ") };
  return { ...FULL_GRID, mode: "resolution", resolution: Number(stored.resolution ?? 3) };
}

/** The request body for preview and create. */
export function toSpec(form: DesignForm, params: ParameterPublic[]): ExperimentCreate {
  const grid = toGridSpec(form, params);
  if (!form.slo) return grid;
  const { repetition_rule: _, fraction: __, ...rest } = grid;
  return { ...rest, factors: {}, slo_search: toSloSearch(form.slo) };
}

function toGridSpec(form: DesignForm, params: ParameterPublic[]): ExperimentCreate {
  return {
    name: form.name,
    description: form.description,
    template: form.template,
    factors: Object.fromEntries(
      form.factors.map((f) => [f.name, parseLevels(kindOf(params, f.name), f.levels)]),
    ),
    fixed: Object.fromEntries(
      form.fixed.map((f) => [f.name, parseLevel(kindOf(params, f.name), f.value)]),
    ),
    ...Object.fromEntries(
      DESIGN_KEYS.filter((k) => form[k] !== undefined).map((k) => [k, form[k]]),
    ),
    ...(form.testbed_id !== undefined ? { testbed_id: form.testbed_id } : {}),
    ...(form.rule ? { repetition_rule: toRule(form.rule, form.repetitions) } : {}),
    ...(toFraction(form.fraction) ? { fraction: toFraction(form.fraction) } : {}),
  };
}

function toRule(rule: RuleForm, repetitions: number | undefined): RepetitionRuleSpec {
  // Without repetitions the server takes the rule's minimum as the design's repetitions.
  return {
    ...rule,
    source: "client",
    ...(repetitions !== undefined ? { min_repetitions: repetitions } : {}),
  };
}

function fromRule(rule: RepetitionRuleSpec | null | undefined): RuleForm | null {
  if (!rule) return null;
  return {
    metric: rule.metric ?? DEFAULT_RULE.metric,
    half_width_pct: rule.half_width_pct ?? DEFAULT_RULE.half_width_pct,
    confidence: rule.confidence ?? DEFAULT_RULE.confidence,
    max_repetitions: rule.max_repetitions ?? DEFAULT_RULE.max_repetitions,
  };
}

/** The form of an existing design: to edit it, or (under another name) to copy it. */
export function fromExperiment(exp: ExperimentPublic, name = exp.name): DesignForm {
  return {
    name,
    description: exp.description ?? "",
    template: exp.template ?? "custom",
    // A search's factors list the rates it probed (backend/crud/slo.py): not a design.
    factors: exp.slo_search
      ? []
      : Object.entries(exp.factors ?? {}).map(([n, levels]) => ({
          name: n,
          levels: levels.map(formatLevel).join(", "),
        })),
    fixed: Object.entries(exp.fixed ?? {}).map(([n, v]) => ({ name: n, value: formatLevel(v) })),
    repetitions: exp.repetitions,
    run_time_s: exp.run_time_s,
    warmup_s: exp.warmup_s,
    cooldown_s: exp.cooldown_s,
    testbed_id: exp.testbed_id ?? null,
    rule: fromRule(exp.repetition_rule),
    fraction: fromFraction(exp.fraction),
    slo: exp.slo_search ? fromSloSearch(exp.slo_search) : null,
  };
}

/** Seed the form from a catalogue entry, keeping the name the user already typed. */
export function fromTemplate(template: TemplatePublic, name: string): DesignForm {
  return {
    name,
    description: template.description,
    template: template.id as Template,
    factors: Object.entries(template.factors).map(([n, levels]) => ({
      name: n,
      levels: levels.map(formatLevel).join(", "),
    })),
    fixed: Object.entries(template.fixed).map(([n, v]) => ({ name: n, value: formatLevel(v) })),
    repetitions: template.repetitions,
    run_time_s: template.run_time_s,
    warmup_s: template.warmup_s,
    cooldown_s: template.cooldown_s,
  };
}

/** Parameters not yet used as a factor or fixed value, for the "add" pickers. */
export function unusedParameters(form: DesignForm, params: ParameterPublic[]): ParameterPublic[] {
  const used = new Set([...form.factors.map((f) => f.name), ...form.fixed.map((f) => f.name)]);
  return params.filter((p) => !used.has(p.name));
}

/** "1..16 servers", "choices: auto, memtier", "e.g. 1:9 (SET:GET)" – shown under each field. */
export function describeRange(p: ParameterPublic): string {
  if (p.kind === "bool") return "true or false";
  if (p.kind === "ratio") return "SET:GET, e.g. 1:9";
  if (p.kind === "choice") return `one of ${p.choices.join(", ")}`;
  const range = p.minimum !== null && p.maximum !== null ? `${p.minimum}..${p.maximum}` : "";
  const unit = p.unit ? ` ${p.unit}` : "";
  if (p.kind === "replication") return `${range}${unit}, or one / half / all`;
  return `${range}${unit}`;
}
