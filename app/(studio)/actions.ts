"use server";
import { redirect } from "next/navigation";
import { requireStudioSession, signOut } from "@/lib/api/studio-auth";

export async function signOutAction(): Promise<void> {
  await requireStudioSession();
  await signOut();
  redirect("/login");
}
