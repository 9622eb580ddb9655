// What a view shows when there is nothing to list yet.
import type { ReactNode } from "react";

/** Props of EmptyState. */
export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
}

export function EmptyState({ title, children }: EmptyStateProps) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}
