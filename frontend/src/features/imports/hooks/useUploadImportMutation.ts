// Upload an archive (or one output file) to the staging area, with progress: the raw body
// through XMLHttpRequest, whose upload events fetch does not give.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { StagedUpload } from "@/api";
import { ApiError } from "@/lib/apiError";
import { authHeaders, redirectToLogin } from "@/lib/auth";

export const UPLOAD_URL = "/api/v1/imports";

function upload(file: File, onProgress: (fraction: number) => void): Promise<StagedUpload> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${UPLOAD_URL}?filename=${encodeURIComponent(file.name)}`);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status === 401) redirectToLogin();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as StagedUpload);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.send(file);
  });
}

export function useUploadImportMutation() {
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      setProgress(0);
      return upload(file, setProgress);
    },
  });
  return { ...mutation, progress };
}
