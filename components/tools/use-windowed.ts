"use client";
import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Renders only the rows in view of a fixed-height scroller (rows have a fixed
 * height), so a list of 5,000 costs the same as a list of 30.
 */
export function useWindowed(count: number, rowHeight: number, overscan = 8) {
  const ref = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState({ start: 0, end: 40 });

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const start = Math.max(0, Math.floor(el.scrollTop / rowHeight) - overscan);
    const end = Math.min(count, Math.ceil((el.scrollTop + el.clientHeight) / rowHeight) + overscan);
    setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
  }, [count, rowHeight, overscan]);

  useEffect(() => {
    measure();
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  return {
    ref,
    onScroll: measure,
    start: range.start,
    end: Math.min(range.end, count),
    padTop: range.start * rowHeight,
    padBottom: Math.max(0, (count - Math.min(range.end, count)) * rowHeight),
  };
}
