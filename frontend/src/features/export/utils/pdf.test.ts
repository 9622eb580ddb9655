import { describe, expect, it } from "vitest";
import { dataUrlBytes, jpegToPdf } from "./pdf";

// Not a decodable image, but the writer only wraps bytes: what matters is that they go in
// unchanged and every offset in the cross-reference table is right.
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9,
]);

function text(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}

describe("jpegToPdf", () => {
  const pdf = jpegToPdf({
    jpeg: JPEG,
    widthPx: 2700,
    heightPx: 1500,
    pageWidthCssPx: 900,
    pageHeightCssPx: 500,
  });
  const s = text(pdf);

  it("is a PDF with a page of the figure's size in points", () => {
    expect(s.startsWith("%PDF-1.4\n")).toBe(true);
    expect(s.endsWith("%%EOF\n")).toBe(true);
    expect(s).toContain("/MediaBox [0 0 675 375]");
    expect(s).toContain("q 675 0 0 375 0 0 cm /Im0 Do Q");
  });

  it("embeds the JPEG bytes unchanged as a DCTDecode image of its pixel size", () => {
    expect(s).toContain("/Width 2700 /Height 1500");
    expect(s).toContain(`/Filter /DCTDecode /Length ${JPEG.length} >>`);
    const at = s.indexOf("stream\n", s.indexOf("/DCTDecode")) + "stream\n".length;
    expect(Array.from(pdf.subarray(at, at + JPEG.length))).toEqual(Array.from(JPEG));
  });

  it("has a cross-reference table whose offsets point at each object", () => {
    const startxref = Number(s.slice(s.lastIndexOf("startxref\n") + 10).split("\n")[0]);
    expect(s.slice(startxref, startxref + 4)).toBe("xref");
    const entries = s.slice(startxref).split("\n").slice(2, 8);
    expect(entries[0]).toBe("0000000000 65535 f\r");
    for (let obj = 1; obj <= 5; obj++) {
      const offset = Number(entries[obj]?.slice(0, 10));
      expect(s.slice(offset, offset + `${obj} 0 obj`.length)).toBe(`${obj} 0 obj`);
    }
    expect(s).toContain("/Size 6 /Root 1 0 R");
  });
});

describe("dataUrlBytes", () => {
  it("decodes a base64 data URL", () => {
    expect(Array.from(dataUrlBytes("data:image/jpeg;base64,/9j/"))).toEqual([0xff, 0xd8, 0xff]);
  });

  it("refuses anything else", () => {
    expect(() => dataUrlBytes("data:image/svg+xml,<svg/>")).toThrow("base64 data URL");
    expect(() => dataUrlBytes("not a url")).toThrow("base64 data URL");
  });
});
