/* Namespaces and global augmentation. */
export namespace Protocol {
  export type Version = string;
}

export declare namespace Legacy {
  type Id = string;
}

declare global {
  interface Window {
    mcp: unknown;
  }
}
