import { CodeTool, type CodeToolContext } from "./code-tool";

/** The current date and time in an IANA time zone. */
export class CurrentTime extends CodeTool<{ time_zone?: string }> {
  readonly name = "current_time";
  readonly description = "The current date and time, optionally in an IANA time zone such as Europe/Paris.";
  readonly parameters = {
    type: "object" as const,
    properties: { time_zone: { type: "string", description: "IANA time zone; UTC when omitted" } },
  };
  readonly group = "builtin";

  constructor(private readonly now: () => Date = () => new Date()) {
    super();
  }

  async execute(args: { time_zone?: string }, _context?: CodeToolContext) {
    const timeZone = args.time_zone ?? "UTC";
    let local: string;
    try {
      local = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        dateStyle: "short",
        timeStyle: "long",
        hourCycle: "h23",
      }).format(this.now());
    } catch {
      throw new Error(`unknown time zone: ${timeZone}`);
    }
    return { time_zone: timeZone, local, iso_utc: this.now().toISOString() };
  }
}
