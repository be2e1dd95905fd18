/** lib/providers/dialects: providers' JSON Schema dialects: the checker, the strict compiler, the argument mapper (pure). */
export { DIALECTS, DIALECT_LABELS, dialectFor, type Dialect, type DialectModel } from "./dialect";
export { checkDialect, OPENAI_STRICT_BOUNDS, type DialectProblem } from "./check-dialect";
export { compileForDialect } from "./compile-for-dialect";
export { mapStrictArguments } from "./map-arguments";
