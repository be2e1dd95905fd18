import type { CatalogRow } from "@/lib/services/tools/tool-page";

export interface CatalogQuery {
  text: string;
  kind: "" | CatalogRow["kind"];
  status: "" | CatalogRow["status"];
  group: string;
}

/** Rows matching every filter; the text matches name, description, group and tags (all words, any order). */
export function filterCatalog(rows: CatalogRow[], q: CatalogQuery): CatalogRow[] {
  const words = q.text.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    if (q.kind && r.kind !== q.kind) return false;
    if (q.status && r.status !== q.status) return false;
    if (q.group && (r.group ?? "") !== q.group) return false;
    if (words.length === 0) return true;
    const hay = `${r.name} ${r.description} ${r.group ?? ""} ${r.tags.join(" ")}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
