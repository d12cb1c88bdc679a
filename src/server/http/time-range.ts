// The `to` of a time range: a date-only value means the end of that day. The rule lives
// with the schemas, whose from-after-to check reads `to` the same way.
export { endOf } from '../../api/schemas/index.js';
