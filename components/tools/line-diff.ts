/** A line diff (longest common subsequence): small inputs only (tool definitions). */
export type DiffLine = { op: "same" | "add" | "del"; text: string };

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: "del", text: a[i++]! });
    else out.push({ op: "add", text: b[j++]! });
  }
  while (i < n) out.push({ op: "del", text: a[i++]! });
  while (j < m) out.push({ op: "add", text: b[j++]! });
  return out;
}

export type FoldedLine = DiffLine | { op: "fold"; text: string };

/** Keeps `context` unchanged lines around each change and folds the rest ("… 12 unchanged lines"). */
export function foldDiff(lines: DiffLine[], context = 3): FoldedLine[] {
  const keep = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.op === "same") return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: FoldedLine[] = [];
  let hidden = 0;
  const flush = () => {
    if (hidden > 0) out.push({ op: "fold", text: `… ${hidden} unchanged line${hidden === 1 ? "" : "s"}` });
    hidden = 0;
  };
  lines.forEach((l, i) => {
    if (keep[i]) {
      flush();
      out.push(l);
    } else hidden++;
  });
  flush();
  return out;
}
