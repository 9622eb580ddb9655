// Previous/next paging over a server-side list (skip/limit).

/** Props of Pager. */
export interface PagerProps {
  skip: number;
  limit: number;
  count: number;
  onChange: (skip: number) => void;
}

export function Pager({ skip, limit, count, onChange }: PagerProps) {
  if (count <= limit) return null;
  const last = Math.min(skip + limit, count);
  return (
    <div className="pager">
      <button
        type="button"
        disabled={skip === 0}
        onClick={() => onChange(Math.max(0, skip - limit))}
      >
        Previous
      </button>
      <span>
        {skip + 1}–{last} of {count}
      </span>
      <button type="button" disabled={last >= count} onClick={() => onChange(skip + limit)}>
        Next
      </button>
    </div>
  );
}
