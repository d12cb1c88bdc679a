// Composite keys of the service's maps: ids joined by NUL, which no id contains,
// so two different pairs never make the same key.

/** An account's check. */
export const checkKey = (accountId: string, checkId: string) => `${accountId}\u0000${checkId}`;

/** An account's location. */
export const locationKey = (accountId: string, locationId: string) => `${accountId}\u0000${locationId}`;

/** An account's check at one of its locations: a slot of the schedule (also hashed for its offset). */
export const slotKey = (accountId: string, checkId: string, locationId: string) =>
  `${accountId}\u0000${checkId}\u0000${locationId}`;

/** One runner of an account's location. */
export const runnerKey = (accountId: string, locationId: string, runnerId: string) =>
  `${locationKey(accountId, locationId)}\u0000${runnerId}`;
