// A run's error text as the run page shows it: a line repeated on consecutive lines (a load
// generator printing "connection refused" once per connection) is shown once with its count.
// The stored error and the raw files keep every line.

/** One shown line and how many consecutive times it stood in the text. */
export interface RepeatedLine {
  text: string;
  count: number;
}

/** The lines of `text`, consecutive repeats folded into one with their count. */
export function foldRepeatedLines(text: string): RepeatedLine[] {
  const folded: RepeatedLine[] = [];
  for (const line of text.split("\n")) {
    const last = folded.at(-1);
    if (last && last.text === line) last.count += 1;
    else folded.push({ text: line, count: 1 });
  }
  return folded;
}
