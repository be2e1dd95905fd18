import { expect, test } from "@playwright/test";
import { authHeaders, screen, screenVariants, signIn } from "./pages/studio";
import { TracePage } from "./pages/trace-page";

test.beforeEach(async ({ page }) => signIn(page));

type Row = { tool: string; queueStart: number; start: number; end: number };

/**
 * The scripted model "overlap" (written by global-setup) asks for four slow_lookup calls in
 * one step; each takes ~600 ms at the slow loopback backend. With tool_concurrency 3, three
 * run at once and the fourth waits in the queue for a slot.
 */
test("parallel calls overlap on the waterfall, and queue wait is drawn apart from call time", async ({
  page,
  request,
}) => {
  const tool = await request.put("/v1/tools/slow_lookup", {
    headers: authHeaders(),
    data: {
      description: "A slow lookup (e2e)",
      parameters: "n | string | required | which lookup",
      request: { method: "GET", url: process.env.E2E_SLOW_URL, query: { n: "{{n}}" } },
    },
  });
  expect(tool.ok()).toBe(true);
  const agent = await request.put("/v1/agents/e2e_overlap", {
    headers: authHeaders(),
    data: {
      model: { provider: "scripted", model: "overlap" },
      tools_allow: ["slow_lookup"],
      limits: { tool_concurrency: 3 },
    },
  });
  expect(agent.ok()).toBe(true);
  const session = (
    await (await request.post("/v1/sessions", { headers: authHeaders(), data: { agent_id: "e2e_overlap" } })).json()
  ).id as string;
  const turn = await (
    await request.post(`/v1/sessions/${session}/turns`, {
      headers: authHeaders(),
      data: { message: "look up four things" },
    })
  ).json();
  expect(turn).toMatchObject({ status: "completed", content: "All four lookups are back." });

  await page.goto(`/sessions/${session}`);
  const trace = new TracePage(page);
  await expect(trace.waterfallRows()).toHaveCount(4);
  const rows: Row[] = await trace.waterfallRows().evaluateAll((els) =>
    els.map((el) => ({
      tool: el.textContent ?? "",
      queueStart: Number(el.getAttribute("data-queue-start-ms")),
      start: Number(el.getAttribute("data-start-ms")),
      end: Number(el.getAttribute("data-end-ms")),
    })),
  );
  const byStart = [...rows].sort((a, b) => a.start - b.start);
  const [a, b, c, queued] = byStart as [Row, Row, Row, Row];
  // The first three run at the same time: every pair's time ranges intersect.
  for (const [x, y] of [
    [a, b],
    [a, c],
    [b, c],
  ] as const) {
    expect(x.start).toBeLessThan(y.end);
    expect(y.start).toBeLessThan(x.end);
  }
  // The fourth waited for a slot: queued from the batch's start, running only once a call had ended.
  expect(queued.start - queued.queueStart).toBeGreaterThan(300);
  expect(queued.start).toBeGreaterThanOrEqual(Math.min(a.end, b.end, c.end) - 50);
  for (const r of [a, b, c]) expect(r.start - r.queueStart).toBeLessThan(150);

  // And on screen: the three call bars overlap horizontally; the queued row's grey queue segment ends where its bar begins.
  const box = async (i: number, part: "call" | "queue") =>
    (await trace.waterfallRows().nth(i).getByTestId(`waterfall-${part}`).boundingBox())!;
  const index = (r: Row) => rows.indexOf(r);
  const bars = await Promise.all([a, b, c].map((r) => box(index(r), "call")));
  const left = Math.max(...bars.map((x) => x.x));
  const right = Math.min(...bars.map((x) => x.x + x.width));
  expect(right - left).toBeGreaterThan(20);
  const queueBox = await box(index(queued), "queue");
  const queuedBar = await box(index(queued), "call");
  expect(queueBox.width).toBeGreaterThan(20);
  expect(Math.abs(queueBox.x + queueBox.width - queuedBar.x)).toBeLessThan(3);
  const colors = await trace
    .waterfallRows()
    .nth(index(queued))
    .evaluate((el) =>
      ["queue", "call"].map(
        (p) => getComputedStyle(el.querySelector(`[data-testid="waterfall-${p}"]`)!).backgroundColor,
      ),
    );
  expect(colors[0]).not.toBe(colors[1]);
  await trace.waterfallRows().first().scrollIntoViewIfNeeded();
  await screen(page, "trace-waterfall-overlap");
  await screenVariants(page, "trace-waterfall-overlap");
});
