import { describe, expect, it } from "vitest";
import { formatBytes } from "./fileSize";

describe("formatBytes", () => {
  it("keeps bytes below a KiB and scales above", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(65_536)).toBe("64.0 KiB");
    expect(formatBytes(3_355_443)).toBe("3.2 MiB");
  });
});
