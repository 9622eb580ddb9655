// STYLE.md rule 43 on the real sources, and the checker itself on made-up violations.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkImports, type Sources } from "./importRules";

const SRC = join(process.cwd(), "src");

function readSources(): Sources {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative(SRC, path) !== "api") walk(path);
      } else if (/\.tsx?$/.test(entry.name)) {
        sources.set(relative(SRC, path).split("\\").join("/"), readFileSync(path, "utf8"));
      }
    }
  };
  walk(SRC);
  return sources;
}

describe("the feature import rules", () => {
  const report = checkImports(readSources());

  it("enters every feature through its index.ts", () => {
    expect(report.deep).toEqual([]);
  });

  it("has no import cycle between features", () => {
    expect(report.cycles).toEqual([]);
    // The check sees the graph: the experiment page composes the other features.
    expect([...(report.graph.get("experiments") ?? [])]).toContain("runs");
  });
});

describe("checkImports", () => {
  const files = (entries: Record<string, string>): Sources => new Map(Object.entries(entries));

  it("flags deep imports, by alias or relative path, and shared code importing a feature", () => {
    const report = checkImports(
      files({
        "features/a/index.ts": 'export { A } from "./components/A";',
        "features/a/components/A.tsx": 'import { b } from "@/features/b/utils/b";',
        "features/a/components/C.tsx": 'import { b } from "../../b/utils/b";',
        "features/a/components/D.tsx":
          'import { B } from "@/features/b";\nimport { A } from "./A";',
        "features/b/index.ts": 'export { b as B } from "./utils/b";',
        "features/b/utils/b.ts": "export const b = 1;",
        "lib/x.ts": 'import { B } from "@/features/b";',
      }),
    );
    expect(report.deep).toEqual([
      "features/a/components/A.tsx: @/features/b/utils/b",
      "features/a/components/C.tsx: ../../b/utils/b",
      "lib/x.ts: @/features/b (src/lib and src/components import no feature)",
    ]);
    expect(report.cycles).toEqual([]);
  });

  it("finds a cycle between features, even through their entrances", () => {
    const report = checkImports(
      files({
        "features/a/index.ts": 'import { B } from "@/features/b";\nexport const A = B;',
        "features/b/index.ts": 'import { C } from "@/features/c";\nexport const B = C;',
        "features/c/index.ts": 'export { A as C } from "@/features/a";',
      }),
    );
    expect(report.deep).toEqual([]);
    expect(report.cycles).toEqual(["a -> b -> c -> a"]);
  });
});
