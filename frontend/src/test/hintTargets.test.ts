// Every hint or link that names a page, tab, route or button points at one that exists, on the
// real sources; and the checker itself finds made-up dangling ones.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkHints, routePatterns, type Sources } from "./hintTargets";

const SRC = join(process.cwd(), "src");
const ROOT = join(process.cwd(), "..");

function read(dir: string, ext: RegExp, skip: (path: string) => boolean): Sources {
  const sources = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (skip(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (ext.test(entry.name)) {
        sources.set(relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8"));
      }
    }
  };
  walk(dir);
  return sources;
}

const ui = read(SRC, /\.tsx?$/, (p) => relative(SRC, p) === "api");
// The server's strings that reach the user: messages, served descriptions, the worker's errors.
const served = new Map(
  ["backend", "worker", "infra"].flatMap((top) => [
    ...read(join(ROOT, top), /\.py$/, (p) => /(^|\/)(tests|__pycache__|scripts)$/.test(p)),
  ]),
);

describe("hints and links on the real sources", () => {
  const report = checkHints(ui, served);

  it("reads the sources it checks", () => {
    expect(routePatterns(ui.get("routes.tsx") ?? "")).toContain("/prices");
    expect(served.size).toBeGreaterThan(50);
  });

  it("links only to routes that exist", () => {
    expect(report.links).toEqual([]);
  });

  it("links to anchors some element has", () => {
    expect(report.anchors).toEqual([]);
  });

  it("names only controls that exist", () => {
    expect(report.controls).toEqual([]);
  });

  it("names only pages and tabs the UI has", () => {
    expect(report.places).toEqual([]);
  });
});

describe("checkHints", () => {
  const base: Record<string, string> = {
    "routes.tsx": `[{ path: "/", children: [{ path: "prices" }, { path: "runs/:runId" }] }]`,
    "components/common/Layout.tsx": `<NavLink to="/prices">Prices</NavLink>`,
    "features/experiments/components/ExperimentTabs.tsx": `const TITLES = {\n  results: "Results",\n};`,
    "features/x/Button.tsx": `<button type="button">Measure bandwidth</button><div id={\`card-\${id}\`} />`,
  };
  const check = (extra: Record<string, string>, served: Record<string, string> = {}) =>
    checkHints(new Map(Object.entries({ ...base, ...extra })), new Map(Object.entries(served)));

  it("accepts links, anchors, controls and places that exist", () => {
    const report = check(
      {
        "features/x/Hint.tsx": `<p className="hint">see <Link to={\`/runs/\${id}#card-\${id}\`}>it</Link>, <em>Measure bandwidth</em></p>`,
      },
      { "a.py": `msg = "pin it on the Prices page (Measure bandwidth); see the Results tab"` },
    );
    expect(report).toEqual({ links: [], anchors: [], controls: [], places: [] });
  });

  it("finds a link to no route, an anchor on no element and a control no one has", () => {
    const report = check({
      "features/x/Hint.tsx": `<p className="hint"><Link to="/pricing">set</Link> <Link to={\`/prices#row-\${id}\`}>x</Link> press <em>Measure speed</em></p><p>Nothing runs until you press Start.</p>`,
    });
    expect(report.links).toEqual(["features/x/Hint.tsx: /pricing"]);
    expect(report.anchors).toEqual([`features/x/Hint.tsx: #row-\${id}`]);
    expect(report.controls).toEqual([
      "features/x/Hint.tsx: Measure speed",
      "features/x/Hint.tsx: Start",
    ]);
  });

  it("finds a page, tab or button named in served text that the UI has not", () => {
    const report = check(
      {},
      { "b.py": `raise E("see the Machines tab, or the Prices page (Pin key)")` },
    );
    expect(report.places).toEqual(["b.py: Machines"]);
    expect(report.controls).toEqual(["b.py: Pin key"]);
  });
});
