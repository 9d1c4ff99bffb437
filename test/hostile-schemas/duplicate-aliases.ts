/* One name declared by two type aliases: TypeScript rejects both. */
export type Role = "user" | "assistant";

export type Role = "user" | "assistant" | "system";
