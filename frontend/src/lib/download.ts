// Saving files (CSV, LaTeX, server-rendered figures, zips) as a download in the browser.

export function downloadText(filename: string, text: string, mime: string): void {
  downloadBlob(filename, new Blob([text], { type: mime }));
}

// How long a saved file's object URL stays valid. A browser may start the download after the
// click's handler has returned, reading the blob through its URL: revoked at once, the download
// can be lost without a word (Firefox's bug 1282407; FileSaver.js waits 40 s for the same
// reason). Only the blob is held meanwhile.
export const REVOKE_AFTER_MS = 60_000;

export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** A file-name-safe slug of an experiment name. */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "experiment"
  );
}
