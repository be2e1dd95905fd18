import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Insika Studio",
  description: "Run LLM tools in production",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
