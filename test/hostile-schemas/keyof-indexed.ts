/* keyof and indexed access on interfaces (only `as const` objects support them). */
export interface Tool {
  name: string;
  title: string;
}

export type ToolKey = keyof Tool;

export type ToolName = Tool["name"];

export type AnyValue = Tool[keyof Tool];
