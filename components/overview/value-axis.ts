/**
 * The value axis of an Overview chart: from 0 to a round maximum at or above the largest
 * value, with a few round, whole-number ticks (a count of calls or of milliseconds is never
 * fractional). d3-array picks the round numbers.
 */
import { nice, ticks } from "d3-array";

/** About this many ticks (d3 may give one more or fewer to keep them round). */
const TICKS = 4;

export interface ValueAxis {
  /** The axis end: a round number >= the largest value, at least 1. */
  max: number;
  /** Round, whole values from 0 to max. */
  ticks: number[];
  /** Where `value` sits from the top of the plot, as a CSS percentage (0 = max, 100% = 0). */
  top(value: number): string;
  /** Where `value` sits from the left of a horizontal plot, as a CSS percentage. */
  left(value: number): string;
}

export function valueAxis(largest: number): ValueAxis {
  const finite = Number.isFinite(largest) && largest > 0 ? largest : 0;
  const [, end] = nice(0, Math.max(1, finite), TICKS);
  const max = Math.max(1, Math.ceil(end));
  const share = (value: number) => Math.min(1, Math.max(0, value / max));
  return {
    max,
    ticks: ticks(0, max, TICKS).filter(Number.isInteger),
    top: (value) => `${(1 - share(value)) * 100}%`,
    left: (value) => `${share(value) * 100}%`,
  };
}
