// The run's raw files in the page: every archived file with its size, one open at a time and
// read a page (64 KiB) at a time, each downloadable on its own.
import { useEffect, useState } from "react";
import { handleError } from "@/components/common/handleError";
import { PendingBlock } from "@/components/common/PendingBlock";
import { useDownloadRunFileMutation } from "../hooks/useDownloadRunFileMutation";
import { useGetRunFilePageQuery } from "../hooks/useGetRunFilePageQuery";
import { useGetRunFilesQuery } from "../hooks/useGetRunFilesQuery";
import { formatBytes } from "../utils/fileSize";

/** Props of RunFiles. */
export interface RunFilesProps {
  runId: number;
  live: boolean;
}

export function RunFiles({ runId, live }: RunFilesProps) {
  const { files, isLoading, error } = useGetRunFilesQuery(runId, live);
  const [open, setOpen] = useState<string | null>(null);
  // Offsets of the pages read so far: "Previous" goes back without the server keeping state.
  const [offsets, setOffsets] = useState<number[]>([0]);
  const offset = offsets[offsets.length - 1] ?? 0;
  const { page, isFetching, error: pageError } = useGetRunFilePageQuery(runId, open, offset);
  const download = useDownloadRunFileMutation();
  useEffect(() => {
    for (const e of [error, pageError, download.error]) if (e) handleError(e);
  }, [error, pageError, download.error]);

  if (isLoading) return <PendingBlock label="Loading the run's files" />;
  if (!files || files.length === 0) {
    return <p className="hint">No raw files archived yet.</p>;
  }
  const show = (path: string) => {
    setOpen(path);
    setOffsets([0]);
  };
  const shown = page && page.path === open ? page : undefined;
  return (
    <div className="run-files" data-testid="run-files">
      <table className="table compact">
        <thead>
          <tr>
            <th>File</th>
            <th>Size</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path} className={f.path === open ? "selected" : undefined}>
              <td>
                <button type="button" className="link" onClick={() => show(f.path)}>
                  {f.path}
                </button>
              </td>
              <td>{formatBytes(f.size_bytes)}</td>
              <td>
                <button
                  type="button"
                  className="small"
                  aria-label={`Download ${f.path}`}
                  onClick={() => download.mutate({ runId, path: f.path })}
                >
                  Download
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <div className="file-viewer" data-testid="file-viewer">
          <div className="section-header">
            <h3>{open}</h3>
            {shown && (
              <span className="hint" data-testid="file-page-range">
                bytes {shown.offset.toLocaleString()}–
                {(shown.next_offset ?? shown.size_bytes).toLocaleString()} of{" "}
                {shown.size_bytes.toLocaleString()}
                {isFetching && " (loading…)"}
              </span>
            )}
          </div>
          {!shown ? (
            <PendingBlock label="Reading the file" rows={3} />
          ) : shown.binary ? (
            <p className="hint">This file is binary: download it to read it.</p>
          ) : (
            <pre className="file-text" data-testid="file-text">
              {shown.text}
            </pre>
          )}
          <div className="actions">
            <button
              type="button"
              disabled={offsets.length < 2}
              onClick={() => setOffsets((o) => o.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={!shown || shown.next_offset === null}
              onClick={() => {
                const next = shown?.next_offset;
                if (next !== null && next !== undefined) setOffsets((o) => [...o, next]);
              }}
            >
              Next page
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
