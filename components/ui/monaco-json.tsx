"use client";
import Editor, { loader } from "@monaco-editor/react";
import { useEffect, useState } from "react";
import { useReadOnly } from "./editable";

// The default loader fetches Monaco from a CDN, which is unreachable: serve our own copy
// (copied to public/monaco/vs by scripts/copy-monaco.mjs before the build).
loader.config({ paths: { vs: "/monaco/vs" } });

export interface JsonEditorProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  ariaLabel: string;
  invalid?: boolean;
  height: number;
}

function usePrefersDark(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    setDark(query.matches);
    const onChange = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return dark;
}

export function MonacoJson({ id, value, onChange, ariaLabel, invalid, height }: JsonEditorProps) {
  const dark = usePrefersDark();
  const readOnly = useReadOnly();
  return (
    <div
      id={id}
      data-testid={`${id}-monaco`}
      aria-invalid={invalid ? "true" : undefined}
      className="overflow-hidden rounded border border-zinc-300 aria-[invalid=true]:border-red-500 dark:border-zinc-700"
    >
      <Editor
        height={height}
        language="json"
        theme={dark ? "vs-dark" : "light"}
        value={value}
        onChange={(v) => onChange(v ?? "")}
        options={{
          ariaLabel,
          readOnly,
          minimap: { enabled: false },
          fontSize: 13,
          lineNumbers: "on",
          scrollBeyondLastLine: false,
          tabSize: 2,
          wordWrap: "on",
          automaticLayout: true,
          // Tab moves focus out of the editor (keyboard users must be able to leave it).
          tabFocusMode: true,
        }}
      />
    </div>
  );
}
