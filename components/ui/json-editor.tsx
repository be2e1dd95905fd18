"use client";
import dynamic from "next/dynamic";
import type { JsonEditorProps } from "./monaco-json";

const HEIGHT = 260;

// Monaco touches window at import: load it in the browser only. The placeholder
// has the editor's exact height so nothing moves when it arrives.
const MonacoJson = dynamic(() => import("./monaco-json").then((m) => m.MonacoJson), {
  ssr: false,
  loading: () => (
    <div
      style={{ height: HEIGHT }}
      className="flex items-center justify-center rounded border border-zinc-300 text-sm text-zinc-500 dark:border-zinc-700"
    >
      Loading the JSON editor…
    </div>
  ),
});

/** A JSON editor (Monaco, served by this app from /monaco/vs; no CDN). */
export function JsonEditor(props: Omit<JsonEditorProps, "height">) {
  return <MonacoJson {...props} height={HEIGHT} />;
}
