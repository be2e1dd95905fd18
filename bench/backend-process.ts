/**
 * The loopback backend of the benches, in its own process so its work does not
 * share the measured process's event loop (on 2 cores, client and server each
 * get one). It is the tests' backend fixture (test/support/loopback-backend.ts) with two
 * routes: GET /items (a small JSON answer) and GET /slow (the same, after 200 ms).
 * Prints `{"port": N}` once listening; exits when its parent goes away.
 */
import { startLoopbackBackend } from "../test/support/loopback-backend";
import { startedAs } from "./bench-script";

export const ITEMS = { items: [{ id: "42", name: "Desk lamp", price: 19.9, stock: 3 }], total: 1 };
export const SLOW_MS = 200;

async function main(): Promise<void> {
  const backend = await startLoopbackBackend();
  // The fixture records every request for the tests; a bench sends millions, so forget them.
  const answer = (delayMs?: number) => () => {
    backend.requests.length = 0;
    return delayMs ? { body: ITEMS, delayMs } : { body: ITEMS };
  };
  backend.route("GET", "/items", answer());
  backend.route("GET", "/slow", answer(SLOW_MS));
  process.stdout.write(`${JSON.stringify({ port: backend.port })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void backend.close().then(() => process.exit(0)));
}

if (startedAs("backend-process")) void main();
