// application/json or any +json type (application/problem+json, application/vnd.x+json), with parameters (charset).
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json[\t ]*(?:;.*)?$/i;

/**
 * True when a Content-Type header declares JSON: the one rule of every server
 * of the kit for which bodies it reads as JSON (others get 415).
 */
export function isJsonMediaType(contentType: string): boolean {
  // What tills send, checked before the general pattern: this runs on every POST of the verify path.
  return contentType === 'application/json' || JSON_MEDIA_TYPE.test(contentType.trim());
}
