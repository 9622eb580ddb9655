// Login: paste an API token (from `python -m backend.cli token create NAME`, or the one
// `make up` printed); it is checked against POST /auth/login before it is kept.
import { type FormEvent, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { AuthService } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { ApiError } from "@/lib/apiError";
import { nextPath, setToken } from "@/lib/auth";

export function LoginPage() {
  const [token, setTokenField] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const pasted = token.trim();
    if (!pasted) {
      setError("Paste a token first.");
      return;
    }
    setPending(true);
    setError(undefined);
    try {
      await AuthService.login({ auth: pasted, throwOnError: true });
      setToken(pasted);
      navigate(nextPath(location.search), { replace: true });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? "This token is not valid (unknown or revoked)."
          : err instanceof Error
            ? err.message
            : "The server could not be reached",
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="login-page">
      <form className="card login" onSubmit={submit} noValidate>
        <h1>mcscope</h1>
        <p>
          Paste an API token. Create one on the API machine with{" "}
          <code>python -m backend.cli token create NAME</code>.
        </p>
        <label>
          Token
          <input
            name="token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setTokenField(e.target.value)}
            aria-invalid={Boolean(error)}
          />
        </label>
        <FieldError message={error} testId="error-token" />
        <div className="actions">
          <button type="submit" className="primary" disabled={pending}>
            Log in
          </button>
        </div>
      </form>
    </div>
  );
}
