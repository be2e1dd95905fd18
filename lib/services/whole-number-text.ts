/**
 * A whole number given as text (a query parameter, a Studio link's), read only from decimal
 * digits. `z.coerce.number()` would take whatever `Number()` takes ("" as 0, "0x10", "1e2",
 * " 7"), answering a client's mistake as if it had asked for something else.
 */
import { z } from "zod";

/** Text holding a whole number from `min` to `max`, written in decimal digits. */
export function wholeNumberText(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,16}$/, "expected a whole number in decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
