/** Résumé of a tool, saved as Latin-1. */
export interface Tool {
  name: string;
}
