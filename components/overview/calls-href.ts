/** The link to the calls list (/calls) filtered to what a chart item stands for. */
export interface CallsLink {
  tool?: string;
  agent?: string;
  outcome?: "ok" | "error" | "blocked";
  since?: number;
  until?: number;
}

export function callsHref(link: CallsLink): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(link)) if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return text ? `/calls?${text}` : "/calls";
}
