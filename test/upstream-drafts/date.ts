/* A standard library type in the schema: upstream's JSON Schema pipeline publishes `Date` as a date-time string. */
export interface Annotations {
  audience?: string[];
  lastModified?: Date;
}
export interface Resource {
  uri: string;
  annotations?: Annotations;
  created: Date | null;
}
