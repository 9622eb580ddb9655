// A one-page PDF around a JPEG: PDF readers decode JPEG natively (DCTDecode), so the image
// bytes go in unchanged and no PDF library is needed. Used for figure export.

/** Pixel size of the embedded image and the page size it is shown at (CSS pixels). */
export interface PdfImage {
  jpeg: Uint8Array;
  widthPx: number;
  heightPx: number;
  pageWidthCssPx: number;
  pageHeightCssPx: number;
}

const encoder = new TextEncoder();
const PT_PER_CSS_PX = 0.75; // 96 CSS px per inch, 72 pt per inch

/** The PDF file bytes: catalog, page, image XObject, content stream, cross-reference table. */
export function jpegToPdf(img: PdfImage): Uint8Array {
  const w = round2(img.pageWidthCssPx * PT_PER_CSS_PX);
  const h = round2(img.pageHeightCssPx * PT_PER_CSS_PX);
  const draw = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
  const objects: (string | Uint8Array)[][] = [
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] ` +
        "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>",
    ],
    [
      `<< /Type /XObject /Subtype /Image /Width ${img.widthPx} /Height ${img.heightPx} ` +
        `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${img.jpeg.length} >>\nstream\n`,
      img.jpeg,
      "\nendstream",
    ],
    [`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`],
  ];
  const parts: Uint8Array[] = [encoder.encode("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    for (const piece of [`${i + 1} 0 obj\n`, ...body, "\nendobj\n"]) {
      const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
      parts.push(bytes);
      offset += bytes.length;
    }
  });
  // xref entries are exactly 20 bytes each: 10-digit offset, space, 5-digit generation, " n\r\n".
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n\r\n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(encoder.encode(xref));
  return concat(parts);
}

/** Bytes of a base64 data URL (what Plotly.toImage returns). */
export function dataUrlBytes(dataUrl: string): Uint8Array {
  const comma = dataUrl.indexOf(",");
  if (!dataUrl.startsWith("data:") || comma < 0 || !dataUrl.slice(0, comma).endsWith(";base64")) {
    throw new Error("expected a base64 data URL");
  }
  const raw = atob(dataUrl.slice(comma + 1));
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
