/* Several syntax errors, reported together. */
export interface Tool {
  name: string
  title?: : string;
}

export type Role = "user" | ;

export interface Resource {
  uri string;
}
