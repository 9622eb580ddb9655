// Named saved views: save the current Compare state on the server, reopen or delete one.
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { handleError } from "@/components/common/handleError";
import { useCreateViewMutation } from "../hooks/useCreateViewMutation";
import { useDeleteViewMutation } from "../hooks/useDeleteViewMutation";
import { useGetViewsQuery } from "../hooks/useGetViewsQuery";
import {
  type CompareState,
  fromViewState,
  serializeCompare,
  toViewState,
} from "../utils/compareState";

/** Props of SavedViews. */
export interface SavedViewsProps {
  state: CompareState;
}

export function SavedViews({ state }: SavedViewsProps) {
  const { views } = useGetViewsQuery();
  const create = useCreateViewMutation();
  const remove = useDeleteViewMutation();
  const [name, setName] = useState("");
  const save = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name, state: toViewState(state) },
      { onSuccess: () => setName(""), onError: handleError },
    );
  };
  return (
    <div data-testid="saved-views">
      <h2>Saved views</h2>
      <form className="toolbar" onSubmit={save}>
        <input
          aria-label="view name"
          placeholder="name of this view"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={!name.trim() || create.isPending}>
          Save view
        </button>
      </form>
      {views?.data.length ? (
        <ul className="checklist">
          {views.data.map((v) => (
            <li key={v.id}>
              <Link to={`/compare${serializeCompare(fromViewState(v.state))}`}>{v.name}</Link>{" "}
              <button
                type="button"
                className="danger"
                aria-label={`delete view ${v.name}`}
                onClick={() => remove.mutate(v.id, { onError: handleError })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">No saved views yet.</p>
      )}
    </div>
  );
}
