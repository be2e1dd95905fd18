"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { saveToolAction } from "@/app/(studio)/tools/actions";
import { Button } from "@/components/ui/button";
import { BasicsFields } from "./basics-fields";
import { HaltFields } from "./halt-fields";
import { ParamsField } from "./params-field";
import { RequestFields } from "./request-fields";
import type { Stored } from "./tool-form";
import { useToolForm } from "./use-tool-form";

interface Props {
  /** The stored definition (null for a new tool); fields the editor does not render are sent back as they are. */
  stored: Stored | null;
  reservedNames: string[];
}

/** The data tool editor: every field, validated as you type by the API's own validator, saved in one write. */
export function ToolEditor({ stored, reservedNames }: Props) {
  const router = useRouter();
  const isNew = stored === null;
  const { form, set, definition, problems, errors, submit, setServerError } = useToolForm(stored, reservedNames);
  const [pending, startTransition] = useTransition();

  const onSave = (event: React.FormEvent) => {
    event.preventDefault();
    submit();
    if (problems.length > 0) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>("[data-field-errors]")?.scrollIntoView({ block: "center" }),
      );
      return;
    }
    startTransition(async () => {
      const result = await saveToolAction(form.name.trim(), definition);
      if (!result.ok) return setServerError(result.error);
      // The page says which version was saved and remounts the editor from what was stored.
      router.replace(`/tools/${encodeURIComponent(result.value.name)}?saved=${result.value.version ?? ""}`);
      router.refresh();
    });
  };

  const general = errors("general");
  return (
    <form onSubmit={onSave} noValidate aria-label="Tool definition" className="flex flex-col gap-4">
      <BasicsFields form={form} isNew={isNew} errors={errors} set={set} />
      <fieldset className="rounded border border-zinc-200 p-4 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold">Parameters</legend>
        <ParamsField
          mode={form.paramsMode}
          text={form.paramsText}
          errors={errors("paramsText")}
          onChange={(mode, text) => {
            set("paramsMode", mode);
            set("paramsText", text);
          }}
        />
      </fieldset>
      <RequestFields form={form} errors={errors} set={set} />
      <HaltFields form={form} errors={errors} set={set} />
      {general.length > 0 ? (
        <ul
          role="alert"
          data-field-errors="general"
          className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-300"
        >
          {general.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <div className="sticky bottom-0 -mx-1 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-white/95 px-1 py-3 dark:border-zinc-800 dark:bg-zinc-950/95">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : isNew ? "Create tool" : "Save"}
        </Button>
        {problems.length > 0 ? (
          <span className="text-sm text-zinc-500">{problems.length} problem(s) to fix before saving</span>
        ) : null}
      </div>
    </form>
  );
}
