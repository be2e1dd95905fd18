export * from "./agents";
export * from "./settings";
export * from "./tool-versions";
export * from "./tools";
