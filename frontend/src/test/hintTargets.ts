// Hints that point somewhere must point at something that exists: every in-app link at a route
// of routes.tsx (and its #anchor at an element id), every control a hint names in <em> at a
// control's label, and every page, tab or button the server's messages name at the UI's own.
// Checked on the sources (hintTargets.test.ts), so a renamed button or route fails a test.
import { matchPath } from "react-router";

/** File path (relative, "/"-separated) -> its text. */
export type Sources = ReadonlyMap<string, string>;

export interface HintReport {
  /** "file: target" of links no route matches. */
  links: string[];
  /** "file: #anchor" of anchors no element id has. */
  anchors: string[];
  /** "file: name" of controls named in a hint that no control is labelled with. */
  controls: string[];
  /** "file: name" of pages or tabs named in served text the UI has not. */
  places: string[];
}

/** Paths the app serves beside the client routes (the documentation site). */
const SERVED_BESIDE = ["/guide/"];

/** The route patterns of routes.tsx: `path: "x"` entries, nested under "/". */
export function routePatterns(routesSource: string): string[] {
  return [...routesSource.matchAll(/path:\s*"([^"]+)"/g)]
    .map((m) => m[1] ?? "")
    .filter((p) => p !== "*")
    .map((p) => (p.startsWith("/") ? p : `/${p}`));
}

/** A link's target with its template parts filled: `/runs/${id}` -> /runs/1, `/compare${q}`
 * -> /compare (a part right after "/" is a path segment, elsewhere a query string). */
function concrete(target: string): string {
  return target.replace(/(\/?)\$\{[^}]*\}/g, (_m, slash: string) => (slash ? "/1" : ""));
}

function linkTargets(text: string): string[] {
  const found = [
    ...text.matchAll(/\b(?:to|href)=(?:"(\/[^"]*)"|\{`(\/[^`]*)`\})/g),
    ...text.matchAll(/\bnavigate\(\s*(?:"(\/[^"]*)"|`(\/[^`]*)`)/g),
  ];
  return found.map((m) => m[1] ?? m[2] ?? "");
}

/** The names in <em> inside an element with class "hint" (a hint telling the user what to
 * press), as written in JSX. */
function emphasisedNames(text: string): string[] {
  const names: string[] = [];
  for (const hint of text.matchAll(/className="hint"[^>]*>([\s\S]*?)<\/(?:p|span|div)>/g)) {
    for (const em of (hint[1] ?? "").matchAll(/<em>([^<{]+)<\/em>/g)) {
      names.push((em[1] ?? "").replace(/\s+/g, " ").trim());
    }
  }
  return names;
}

/** Controls a sentence tells the user to press: "press Create", "press Show plan". */
function pressedNames(text: string): string[] {
  return [...text.matchAll(/\b[Pp]ress (?:<em>)?([A-Z][\w-]*(?: [a-z][\w-]*)?)/g)].map(
    (m) => m[1] ?? "",
  );
}

/** Whether some control is labelled `name`: a button's or link's text, or a string literal. */
function labelled(sources: Sources, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const label = new RegExp(`(?:>\\s*|")${escaped}(?:\\s*<|")`);
  for (const [file, text] of sources) {
    if (!file.endsWith(".tsx")) continue;
    // The hint's own <em> does not count as the control.
    if (label.test(text.replace(/<em>[^<]*<\/em>/g, ""))) return true;
  }
  return false;
}

/** Page and tab names of the UI: the top navigation's links and the experiment's tabs. */
export function uiPlaces(layout: string, tabs: string): Set<string> {
  const nav = [...layout.matchAll(/<NavLink[^>]*>\s*([^<]+?)\s*<\/NavLink>/g)].map(
    (m) => m[1] ?? "",
  );
  const titles = [...tabs.matchAll(/^\s+\w+: "([^"]+)",$/gm)].map((m) => m[1] ?? "");
  return new Set([...nav, ...titles]);
}

/** Pages, tabs and buttons named in the server's strings: "the Testbeds page (Pin key)". */
function servedPlaces(text: string): { place: string; control?: string }[] {
  const out: { place: string; control?: string }[] = [];
  for (const literal of text.matchAll(/"([^"\n]*)"/g)) {
    for (const m of (literal[1] ?? "").matchAll(
      /\b([A-Z][a-z]+) (?:page|tab)\b(?: \(([A-Z][^)]*)\))?/g,
    )) {
      out.push({ place: m[1] ?? "", control: m[2] });
    }
  }
  return out;
}

/** Checks the UI sources (`ui`, routes.tsx, Layout.tsx and ExperimentTabs.tsx among them) and
 * the server's (`served`: Python files whose strings reach the user). */
export function checkHints(ui: Sources, served: Sources): HintReport {
  const patterns = routePatterns(ui.get("routes.tsx") ?? "");
  const places = uiPlaces(
    ui.get("components/common/Layout.tsx") ?? "",
    ui.get("features/experiments/components/ExperimentTabs.tsx") ?? "",
  );
  const ids = [...ui.values()].join("\n");
  const report: HintReport = { links: [], anchors: [], controls: [], places: [] };
  for (const [file, text] of ui) {
    if (!file.endsWith(".tsx") || file.endsWith(".test.tsx")) continue;
    for (const target of linkTargets(text)) {
      const [pathAndQuery, anchor] = target.split("#", 2);
      const path = concrete(pathAndQuery ?? "").split("?")[0] ?? "";
      const known =
        SERVED_BESIDE.some((p) => path.startsWith(p)) ||
        patterns.some((p) => matchPath({ path: p, end: true }, path) !== null);
      if (!known) report.links.push(`${file}: ${target}`);
      if (anchor) {
        const prefix = anchor.split("${")[0] ?? "";
        const hasId = ids.includes(`id={\`${prefix}`) || ids.includes(`id="${prefix}`);
        if (!hasId) report.anchors.push(`${file}: #${anchor}`);
      }
    }
    for (const name of new Set([...emphasisedNames(text), ...pressedNames(text)])) {
      if (!labelled(ui, name)) report.controls.push(`${file}: ${name}`);
    }
  }
  for (const [file, text] of served) {
    for (const name of pressedNames(text)) {
      if (!labelled(ui, name)) report.controls.push(`${file}: ${name}`);
    }
    for (const { place, control } of servedPlaces(text)) {
      if (!places.has(place)) report.places.push(`${file}: ${place}`);
      if (control && !labelled(ui, control)) report.controls.push(`${file}: ${control}`);
    }
  }
  return report;
}
