/** The application version reported by /v1/health and the CLI. */
export const APP_VERSION = "0.1.0";
