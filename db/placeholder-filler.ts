/**
 * The values of a prepared statement's parameters from the named values it runs with, as
 * Drizzle's fillPlaceholders gives them, with the decision for each parameter made once when
 * the statement is prepared instead of on every run. Drizzle asks of each parameter, each
 * time, whether it is a placeholder, an encoded placeholder or a constant (`is` walks its
 * class chain); a turn runs some twenty statements, and that asking was ~3% of its CPU.
 * Same results, same error for a missing value (placeholder-filler.test.ts holds it to
 * Drizzle's over every kind of parameter).
 */
import { is, Param, Placeholder } from "drizzle-orm";

type Values = Record<string, unknown>;

/** One parameter: a named value as given, a named value through its column's encoder, or a constant. */
type Slot =
  | { kind: "value"; name: string }
  | { kind: "encoded"; name: string; encode: (value: unknown) => unknown }
  | { kind: "constant"; value: unknown };

/** A function from the named values to the statement's positional parameters. */
export function placeholderFiller(params: readonly unknown[]): (values: Values) => unknown[] {
  const slots = params.map(slotOf);
  return (values) => {
    const out = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as Slot;
      if (slot.kind === "constant") {
        out[i] = slot.value;
        continue;
      }
      if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}" was provided`);
      out[i] = slot.kind === "value" ? values[slot.name] : slot.encode(values[slot.name]);
    }
    return out;
  };
}

function slotOf(p: unknown): Slot {
  if (is(p, Placeholder)) return { kind: "value", name: p.name };
  if (is(p, Param) && is(p.value, Placeholder)) {
    const encoder = p.encoder;
    return { kind: "encoded", name: p.value.name, encode: (value) => encoder.mapToDriverValue(value) };
  }
  return { kind: "constant", value: p };
}
