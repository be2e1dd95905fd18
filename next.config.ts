import type { NextConfig } from "next";
import path from "node:path";

const nextConfig: NextConfig = {
  // prom-client and the OpenTelemetry SDK keep process-wide state: one copy, not one per bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "prom-client",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/otlp-transformer",
  ],
  turbopack: { root: path.resolve(".") },
  poweredByHeader: false,
};

export default nextConfig;
