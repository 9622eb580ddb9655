// Skeleton rows shown while a view's data loads (Suspense-free, driven by query state).

/** Props of PendingBlock. */
export interface PendingBlockProps {
  rows?: number;
  label?: string;
}

export function PendingBlock({ rows = 4, label = "Loading" }: PendingBlockProps) {
  return (
    <div className="pending" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static skeleton rows
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}
