// The import rules of STYLE.md rule 43, checked on source text: a feature is entered through
// its index.ts, src/lib and src/components import no feature, and features import each other
// without a cycle. Biome's noRestrictedImports catches the usual spelling of a deep import as
// it is typed; this check resolves every import (relative ones too) and also finds cycles.

/** Source files by path relative to src, e.g. "features/runs/components/RunPage.tsx". */
export type Sources = ReadonlyMap<string, string>;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function normalize(parts: string[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/** The file an import names, or undefined for packages and generated code. */
export function resolveImport(sources: Sources, from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = normalize([...from.split("/").slice(0, -1), spec]);
  else return undefined;
  base = normalize(base.split("/"));
  return EXTENSIONS.map((e) => base + e).find((p) => sources.has(p));
}

/** "runs" for any file under features/runs/. */
export function featureOf(path: string): string | undefined {
  const m = /^features\/([^/]+)\//.exec(path);
  return m?.[1];
}

export interface ImportRuleReport {
  /** "file: spec" for each import that breaks a rule. */
  deep: string[];
  /** Feature -> the features it imports. */
  graph: Map<string, Set<string>>;
  /** Each cycle once, as "a -> b -> a". */
  cycles: string[];
}

export function checkImports(sources: Sources): ImportRuleReport {
  const deep: string[] = [];
  const graph = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const mine = featureOf(file);
    const shared = file.startsWith("lib/") || file.startsWith("components/");
    for (const [, spec = ""] of text.matchAll(IMPORT)) {
      const target = resolveImport(sources, file, spec);
      const theirs = target && featureOf(target);
      if (!target || !theirs || theirs === mine) continue;
      if (shared) deep.push(`${file}: ${spec} (src/lib and src/components import no feature)`);
      else if (target !== `features/${theirs}/index.ts`) deep.push(`${file}: ${spec}`);
      if (mine) {
        const edges = graph.get(mine) ?? new Set<string>();
        edges.add(theirs);
        graph.set(mine, edges);
      }
    }
  }
  return { deep, graph, cycles: findCycles(graph) };
}

/** Every elementary cycle's first sighting in a depth-first walk, as "a -> b -> a". */
export function findCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles = new Set<string>();
  const done = new Set<string>();
  const walk = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      const loop = path.slice(at);
      // One spelling per cycle: start at its smallest name.
      const start = loop.indexOf([...loop].sort()[0] ?? node);
      const turned = [...loop.slice(start), ...loop.slice(0, start)];
      cycles.add([...turned, turned[0]].join(" -> "));
      return;
    }
    if (done.has(node)) return;
    for (const next of [...(graph.get(node) ?? [])].sort()) walk(next, [...path, node]);
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) walk(node, []);
  return [...cycles].sort();
}
