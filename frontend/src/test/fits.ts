// Fit flags as the server words them (backend/analysis/model_fit.py), for the UI's warning tests.
import type { FitPublic } from "@/api";

/** The MVA point: 21,310 ops/s measured at N = 1 against a model and bound of 14,622. */
export const ABOVE_BOUND: FitPublic = {
  quantity: "throughput",
  unit: "ops/s",
  measured: 21310,
  model: 14622,
  bound: 14622,
  bound_side: "upper",
  error_percent: -31.4,
  beyond_bound_percent: 45.7,
  model_tolerance_percent: 25,
  bound_tolerance_percent: 2,
  verdict: "beyond_bound",
  label: "46 % above the bound",
  message:
    "N = 1: measured throughput 21,310 ops/s lies 45.7 % above the model's bound of 14,622 ops/s (tolerance 2 %)",
};

/** A response time further from the model than its tolerance, inside the bound. */
export const OFF_MODEL: FitPublic = {
  ...ABOVE_BOUND,
  quantity: "response time",
  unit: "s",
  measured: 50e-6,
  model: 68e-6,
  bound: 40e-6,
  bound_side: "lower",
  error_percent: 36,
  beyond_bound_percent: -25,
  verdict: "off_model",
  label: "36 % off the model",
  message:
    "N = 1: measured response time 50.0 µs is 36.0 % from the model's 68.0 µs (tolerance 25 %)",
};
