import { CodeTool } from "./code-tool";

const OPERATIONS = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
} as const;

type Operation = keyof typeof OPERATIONS;

/** Exact arithmetic on two numbers, so the model does not do it in its head. */
export class Calculate extends CodeTool<{ a: number | string; b: number | string; operation: Operation }> {
  readonly name = "calculate";
  readonly description = "Add, subtract, multiply or divide two numbers exactly.";
  readonly parameters = {
    type: "object" as const,
    properties: {
      a: { type: "number" },
      b: { type: "number" },
      operation: { type: "string", enum: Object.keys(OPERATIONS) },
    },
    required: ["a", "b", "operation"],
    additionalProperties: false,
  };
  readonly group = "builtin";

  async execute(args: { a: number | string; b: number | string; operation: Operation }) {
    // Lossless string scalars ("2") are accepted by validation; read them as numbers here.
    const a = Number(args.a);
    const b = Number(args.b);
    if (args.operation === "divide" && b === 0) throw new Error("division by zero");
    const result = OPERATIONS[args.operation](a, b);
    if (!Number.isFinite(result)) throw new Error("result is not a finite number");
    return { result };
  }
}
