/* UTF-8 with a byte order mark and CRLF line ends: lines must still count right. */
export interface Tool {
  name: string;
}
export type Role = "user" | | "assistant";
