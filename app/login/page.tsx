import { redirect } from "next/navigation";
import { hasStudioSession, signIn } from "@/lib/api/studio-auth";

export const dynamic = "force-dynamic";

/** `formData` is whatever the client posted (an action is a public endpoint): anything but the form's token field signs nobody in. */
async function signInAction(formData: unknown) {
  "use server";
  const token = formData instanceof FormData ? formData.get("token") : null;
  const ok = typeof token === "string" && (await signIn(token));
  redirect(ok ? "/" : "/login?error=1");
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  if (await hasStudioSession()) redirect("/");
  const { error } = await searchParams;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 p-6">
      <h1 className="text-2xl font-semibold">Insika Studio</h1>
      <form action={signInAction} className="flex flex-col gap-3">
        <label htmlFor="token" className="text-sm font-medium">
          API token
        </label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          className="rounded border border-zinc-300 bg-transparent px-3 py-2 dark:border-zinc-700"
        />
        {error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            That token is not valid.
          </p>
        ) : null}
        <button type="submit" className="rounded bg-zinc-900 px-3 py-2 text-white dark:bg-zinc-100 dark:text-zinc-900">
          Sign in
        </button>
      </form>
      <p className="text-sm text-zinc-500">
        The token is in <code>data/api-token</code> (or <code>INSIKA_API_TOKEN</code>);{" "}
        <code>npm run insika -- token</code> prints it.
      </p>
    </main>
  );
}
