/**
 * The demo backend's behaviour: a stand-in for an operator's external API, so
 * the first run works offline. Served under /demo-backend only when INSIKA_DEMO is on.
 */
const PRODUCTS = [
  { id: "p-100", name: "Desk lamp", price: 39, tags: ["lighting", "desk"] },
  { id: "p-101", name: "Floor lamp", price: 89, tags: ["lighting"] },
  { id: "p-200", name: "Standing desk", price: 420, tags: ["desk", "furniture"] },
  { id: "p-201", name: "Ergonomic chair", price: 310, tags: ["furniture"] },
  { id: "p-300", name: "Noise-cancelling headphones", price: 199, tags: ["audio"] },
  { id: "p-301", name: "USB microphone", price: 129, tags: ["audio"] },
];

const ORDERS: Record<string, { status: string; eta?: string }> = {
  "A-1001": { status: "shipped", eta: "in 2 days" },
  "A-1002": { status: "processing" },
  "A-1003": { status: "delivered" },
};

const PATHS = new Set(["typescript-basics", "sql-for-analysts", "intro-to-llm-tools"]);

export function searchCatalog(query: string, limit: number) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const results = PRODUCTS.filter((p) =>
    words.every((w) => p.name.toLowerCase().includes(w) || p.tags.some((t) => t.includes(w))),
  ).slice(0, Math.max(1, Math.min(limit, 20)));
  return { query, count: results.length, results };
}

// In memory and bounded: the oldest subscription is forgotten first (it is a demo, not a store).
const subscribed = new Set<string>();
const MAX_SUBSCRIPTIONS = 10_000;

/** SUBSCRIBED the first time (the backend "sends its own confirmation"), SUBSCRIPTION_FAILED after. */
export function subscribe(path: string, email: string) {
  if (!PATHS.has(path)) {
    return { status: "SUBSCRIPTION_FAILED", message: `There is no learning path called '${path}'.`, paths: [...PATHS] };
  }
  const key = `${path}\u0000${email.toLowerCase()}`;
  if (subscribed.has(key)) return { status: "SUBSCRIPTION_FAILED", message: "You are already enrolled in this path." };
  subscribed.add(key);
  if (subscribed.size > MAX_SUBSCRIPTIONS) subscribed.delete(subscribed.values().next().value!);
  return { status: "SUBSCRIBED", message: `You're subscribed to ${path}! A confirmation is on its way to ${email}.` };
}

export function orderStatus(id: string) {
  return Object.hasOwn(ORDERS, id) ? { order_id: id, ...ORDERS[id] } : undefined;
}
