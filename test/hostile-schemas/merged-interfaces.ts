/* Two declarations of one interface merge, as TypeScript merges them (upstream drafts did this). */
export interface Tool {
  name: string;
}

export interface Tool {
  title?: string;
  version: number;
}
