/* Interfaces that extend each other. */
export interface Request extends Notification {
  id: string;
}

export interface Notification extends Request {
  method: string;
}
