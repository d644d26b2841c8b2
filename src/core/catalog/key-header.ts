/** The header that carries the API key in the published spec (§4.1 rule 7); a deployment may name another. */
export const DEFAULT_API_KEY_HEADER = 'X-SERVICE-APIKEY';
