/* A constant and a type alias of one name: TypeScript allows it (values and types live apart); the generator emits both into one namespace. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

export type LATEST_PROTOCOL_VERSION = "2025-11-25" | "draft";
