// The Compare page's state from the URL; every change is a history entry (back/forward work).
import { useQueryStates } from "nuqs";
import { type CompareState, compareParsers, compareUrlKeys } from "../utils/compareState";

export function useCompareState() {
  const [state, setState] = useQueryStates(compareParsers, {
    urlKeys: compareUrlKeys,
    history: "push",
  });
  return [state as CompareState, setState] as const;
}
