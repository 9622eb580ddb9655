// The API bearer token: kept in localStorage after login, sent as a header by the generated
// client and by the live-event stream; a 401 sends the user back to the login page.
import { EventSource as HeaderEventSource } from "eventsource";

export const TOKEN_KEY = "mcscope.token";
export const LOGIN_PATH = "/login";

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
}

export function authHeaders(token: string | null = getToken()): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Where the login page returns to: the current page, unless that is the login page. */
export function loginUrl(location: Pick<Location, "pathname" | "search"> = window.location) {
  const here = `${location.pathname}${location.search}`;
  const next = location.pathname === LOGIN_PATH ? "/" : here;
  return `${LOGIN_PATH}?next=${encodeURIComponent(next)}`;
}

/** After a 401: forget the token and go to the login page (once, not per failed request). */
export function redirectToLogin(): void {
  clearToken();
  if (window.location.pathname !== LOGIN_PATH) window.location.assign(loginUrl());
}

/** A safe in-app path from ?next= (never another origin). */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get("next") ?? "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/**
 * An event stream for `url`. The browser's EventSource cannot send headers, so with a token
 * the `eventsource` package (the same API over fetch) carries the Authorization header.
 */
export function openEventSource(url: string): EventSource {
  const token = getToken();
  if (!token) return new EventSource(url);
  return new HeaderEventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init.headers, ...authHeaders(token) } }),
  }) as unknown as EventSource;
}
