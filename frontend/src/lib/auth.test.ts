// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { authHeaders, clearToken, loginUrl, nextPath, openEventSource, setToken } from "./auth";

afterEach(() => {
  clearToken();
  vi.unstubAllGlobals();
});

describe("auth", () => {
  it("sends the stored token as a bearer header, nothing without one", () => {
    expect(authHeaders()).toEqual({});
    setToken("mcs_abc");
    expect(authHeaders()).toEqual({ Authorization: "Bearer mcs_abc" });
  });

  it("returns to the page the user was on, and never to another origin", () => {
    expect(loginUrl({ pathname: "/experiments/3", search: "?tab=results" })).toBe(
      "/login?next=%2Fexperiments%2F3%3Ftab%3Dresults",
    );
    expect(nextPath("?next=%2Fexperiments%2F3")).toBe("/experiments/3");
    expect(nextPath("?next=https%3A%2F%2Fevil.example")).toBe("/");
    expect(nextPath("?next=%2F%2Fevil.example")).toBe("/");
    expect(nextPath("")).toBe("/");
  });

  it("opens the live-event stream with the token in a header, not the URL", async () => {
    setToken("mcs_abc");
    const fetchMock = vi.fn(
      async () =>
        new Response("event: snapshot\ndata: {}\n\n", {
          headers: { "Content-Type": "text/event-stream" },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const source = openEventSource("/api/v1/experiments/5/events");
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    source.close();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(String(url)).toContain("/api/v1/experiments/5/events");
    expect(String(url)).not.toContain("mcs_abc");
    expect((init.headers as Record<string, string>).Authorization).toBe("Bearer mcs_abc");
  });
});
