// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { downloadBlob, REVOKE_AFTER_MS } from "./download";

describe("downloadBlob", () => {
  const created: string[] = [];
  const revoked: string[] = [];
  let clicked: { href: string; download: string }[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    created.length = 0;
    revoked.length = 0;
    clicked = [];
    // jsdom has no object URLs and does not download: record what the page asks for.
    URL.createObjectURL = () => {
      const url = `blob:test/${created.length}`;
      created.push(url);
      return url;
    };
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download });
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("clicks a link to the blob under the file name and leaves no link behind", () => {
    downloadBlob("summary.csv", new Blob(["a,b\r\n"], { type: "text/csv" }));
    expect(clicked).toEqual([{ href: "blob:test/0", download: "summary.csv" }]);
    expect(document.querySelectorAll("a")).toHaveLength(0);
  });

  it("keeps the blob's URL valid while the browser starts the download, then frees it", () => {
    downloadBlob("figure.pdf", new Blob(["%PDF"]));
    // The browser reads the URL after the click's handler returns: not revoked yet.
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(REVOKE_AFTER_MS - 1);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(["blob:test/0"]);
  });
});
