// The Compare page's state from the URL; every change is a history entry (back/forward work).
// Every change goes through withBrushScope: a brush lapses with the selection it was dragged on.
import { useQueryStates } from "nuqs";
import { useCallback } from "react";
import {
  type CompareState,
  compareParsers,
  compareUrlKeys,
  withBrushScope,
} from "../utils/compareState";

export function useCompareState() {
  const [state, setState] = useQueryStates(compareParsers, {
    urlKeys: compareUrlKeys,
    history: "push",
  });
  const update = useCallback(
    (patch: Partial<CompareState>) => setState((old) => withBrushScope(old as CompareState, patch)),
    [setState],
  );
  return [state as CompareState, update] as const;
}
