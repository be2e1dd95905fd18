"use client";
import { useEffect, useState } from "react";
import { checkUrlAction } from "@/app/(studio)/tools/actions";
import type { UrlVerdict } from "@/lib/services/tools/check-url-verdict";

const TONE: Record<UrlVerdict["verdict"], string> = {
  allowed: "text-emerald-700 dark:text-emerald-400",
  blocked: "text-red-700 dark:text-red-400",
  deferred: "text-amber-800 dark:text-amber-300",
  none: "text-zinc-500",
};

/** The egress guard's verdict for the URL as it is typed (debounced; the server never resolves DNS for it). */
export function EgressVerdict({ url }: { url: string }) {
  const [verdict, setVerdict] = useState<UrlVerdict | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(async () => {
      const result = await checkUrlAction(url);
      if (live) setVerdict(result.ok ? result.value : { verdict: "none", message: result.error });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url]);

  // A fixed minimum height: the line appearing or changing never moves the form.
  return (
    <p
      id="egress-verdict"
      data-testid="egress-verdict"
      data-verdict={verdict?.verdict ?? "pending"}
      aria-live="polite"
      className={`min-h-[1.25rem] text-xs ${TONE[verdict?.verdict ?? "none"]}`}
    >
      {verdict && verdict.verdict !== "none" ? (
        <>
          <span className="font-medium">Egress: </span>
          {verdict.message}
          {verdict.verdict === "blocked" ? <span> — {verdict.hint}</span> : null}
        </>
      ) : null}
    </p>
  );
}
