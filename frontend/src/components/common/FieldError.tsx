// The server's 422 message for one field, shown right under it.

/** Props of FieldError. */
export interface FieldErrorProps {
  message?: string;
  testId?: string;
}

export function FieldError({ message, testId }: FieldErrorProps) {
  if (!message) return null;
  return (
    <div className="field-error" role="alert" data-testid={testId}>
      {message}
    </div>
  );
}
