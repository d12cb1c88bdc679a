// The four states of a check (spec 2.2), as data: the wire schema is made from
// this list, and the filter language checks typed statuses against it. Domain
// imports only types from the api, so the list lives here.
export const CHECK_STATUSES = ['passing', 'failing', 'degraded', 'unknown'] as const;
