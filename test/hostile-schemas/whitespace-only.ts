

// A schema that lost its contents: only comments and blank lines.
/* nothing here */

