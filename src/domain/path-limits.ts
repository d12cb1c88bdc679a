// The longest value a URL path segment of the API names: a check id, a result
// id, a heartbeat token, a public dashboard slug. One number for the config
// (enforced at load), the routes' parameter schemas and the router, so a
// configured value can always be reached and a longer one is simply unknown.
export const MAX_PATH_PARAM_LENGTH = 200;
