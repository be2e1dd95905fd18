import { Badge } from "@/components/ui/badge";
import { RevokeKeyButton } from "./revoke-key-button";

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  agents: string[] | null;
  tenant: string | null;
  turns_per_minute: number | null;
  expires_at: string | null;
  created_at: string | null;
  last_used_at: string | null;
  status: "active" | "revoked" | "expired";
}

const TONE = { active: "green", revoked: "red", expired: "amber" } as const;
const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) : null);

/** Every key, newest first: never a value, only its prefix. `self` (the signed-in key) cannot be revoked from here. */
export function KeyTable({ keys, self }: { keys: KeyRow[]; self: string }) {
  return (
    <div className="overflow-x-auto rounded border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-sm">
        <thead className="bg-zinc-50 text-left text-xs text-zinc-500 dark:bg-zinc-900">
          <tr>
            {[
              "Name",
              "Prefix",
              "Scopes",
              "Agents",
              "Tenant",
              "Turns/min",
              "Expires",
              "Created",
              "Last used",
              "Status",
              "",
            ].map((h, i) => (
              <th key={i} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr
              key={k.id}
              data-key={k.id}
              data-key-name={k.name}
              data-status={k.status}
              className="border-t border-zinc-100 align-top dark:border-zinc-900"
            >
              <td className="px-3 py-2">
                <span className="font-medium">{k.name}</span>
                <div className="font-mono text-xs text-zinc-500">{k.id}</div>
              </td>
              <td className="px-3 py-2 font-mono text-xs">{k.prefix}</td>
              <td className="px-3 py-2">
                <span className="flex flex-wrap gap-1">
                  {k.scopes.map((s) => (
                    <Badge key={s}>{s}</Badge>
                  ))}
                </span>
              </td>
              <td className="px-3 py-2 text-xs">
                {k.agents ? k.agents.join(", ") : <span className="text-zinc-500">all</span>}
              </td>
              <td className="px-3 py-2 text-xs">{k.tenant ?? <span className="text-zinc-500">any</span>}</td>
              <td className="px-3 py-2 text-xs">
                {k.turns_per_minute ?? <span className="text-zinc-500">no limit</span>}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-xs">
                {when(k.expires_at) ?? <span className="text-zinc-500">never</span>}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-xs">{when(k.created_at)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-xs">
                {when(k.last_used_at) ?? <span className="text-zinc-500">never</span>}
              </td>
              <td className="px-3 py-2">
                <Badge tone={TONE[k.status]}>{k.status}</Badge>
              </td>
              <td className="px-3 py-2">
                {k.status === "revoked" ? null : k.id === self ? (
                  <span className="text-xs text-zinc-500">this session&apos;s key</span>
                ) : (
                  <RevokeKeyButton id={k.id} name={k.name} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
