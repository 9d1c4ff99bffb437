/* Object constants the generator cannot turn into literal types. */
export const Plain = { User: "user" };

export const Nested = { Inner: { A: "a" }, Spread: "s", 1: "one" } as const;

export const Roles = { User: "user", Assistant: "assistant" } as const;

export type WholeObject = typeof Roles;

export type Role = (typeof Roles)[keyof typeof Roles];
